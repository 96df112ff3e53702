import React, { type RefObject } from "react";
import { Box, Text, type DOMElement } from "ink";
import type { SessionState } from "../../session/state.js";
import { requestViewOf } from "../render/request-view.js";
import { wrapRows } from "../render/text.js";
import { footer } from "../shell/key-bindings.js";
import { PermissionPrompt } from "./permission-prompt.js";

/**
 * Rows a permission prompt leaves free besides the live tail and the rest of the frame: the blank
 * row above the chrome, Ink's last line, one spare. A frame as tall as the screen makes Ink clear
 * the terminal, scrollback (the transcript) included.
 */
const PROMPT_SLACK = 3;

/** Props of the permission block. */
export interface PermissionBlockProps {
  state: SessionState;
  width: number;
  /** The terminal's height, and what the rest of the frame takes of it (the chrome without this block, the live tail). */
  rows: number;
  rest: number;
  isActive: boolean;
  onAnswer(key: string, optionId: string | null): void;
  /** Measures the block's height. */
  blockRef: RefObject<DOMElement | null>;
}

/** The permission prompt and the keys that leave it: it takes the rows the rest of the frame leaves, so its options stay in view. */
export function PermissionBlock(props: PermissionBlockProps): React.ReactElement {
  const { state, width, isActive } = props;
  const hint = `  ${isActive ? footer([["cancel", "cancels the turn"], "skip-permission"]) : footer(["return-to-permission"])}`;
  const maxRows = Math.max(6, props.rows - props.rest - PROMPT_SLACK - wrapRows(hint, width).length);
  return (
    <Box ref={props.blockRef} flexDirection="column">
      <PermissionPrompt
        requests={state.permissions.map((p) => requestViewOf(state, p))}
        width={width}
        maxRows={maxRows}
        isActive={isActive}
        onAnswer={props.onAnswer}
      />
      <Text dimColor>{hint}</Text>
    </Box>
  );
}
