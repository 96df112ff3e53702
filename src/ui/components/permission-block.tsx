import React, { type RefObject } from "react";
import { Box, type DOMElement } from "ink";
import type { SessionState } from "../../session/state.js";
import { requestViewOf } from "../render/request-view.js";
import { footer } from "../shell/key-bindings.js";
import { SCREEN_SLACK } from "../render/permission-layout.js";
import { PermissionPrompt } from "./permission-prompt.js";

/** Props of the permission block. */
export interface PermissionBlockProps {
  state: SessionState;
  width: number;
  /** The terminal's height, and what the rest of the chrome takes of it (measured without this block). */
  rows: number;
  rest: number;
  /** Rows of live tail kept above the prompt when the prompt fits beside them. */
  live: number;
  isActive: boolean;
  onAnswer(key: string, optionId: string | null): void;
  /** Measures the block's height. */
  blockRef: RefObject<DOMElement | null>;
}

/**
 * The permission prompt and the keys that leave it, in the rows the rest of the chrome leaves: on a
 * small screen the prompt gives up the live tail above it, then its own extras, never its question,
 * its command or its options (the frame is cut from its top to fit the screen).
 */
export function PermissionBlock(props: PermissionBlockProps): React.ReactElement {
  const { state, width, isActive } = props;
  const maxRows = Math.max(1, props.rows - props.rest - SCREEN_SLACK);
  return (
    <Box ref={props.blockRef} flexDirection="column">
      <PermissionPrompt
        requests={state.permissions.map((p) => requestViewOf(state, p))}
        width={width}
        maxRows={maxRows}
        // One spare row besides the live tail's: a height measured a frame late must not cut the prompt.
        preferRows={maxRows - props.live - 1}
        // Away from the prompt, its hint is the only word of how to get back to it.
        below={`  ${isActive ? footer([["cancel", "cancels the turn"], "skip-permission"]) : footer(["return-to-permission"])}`}
        keepBelow={!isActive}
        isActive={isActive}
        onAnswer={props.onAnswer}
      />
    </Box>
  );
}
