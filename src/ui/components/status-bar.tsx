import React from "react";
import { Box, Text } from "ink";
import { cycleModes } from "../../session/session-modes.js";
import type { SessionState } from "../../session/state.js";
import { barSegments } from "../status/session-facts.js";
import { fitSegments, MODE_HINT } from "../status/bar-fit.js";
import { color } from "../render/theme.js";

/** Props of the status bar. */
export interface StatusBarProps {
  state: SessionState;
  agentName: string;
  cwd: string;
  width: number;
  /** Name the key that cycles modes (off in a read-only view). */
  keyHints?: boolean;
}

/** One dim line of facts: agent, session title, mode, model, context use and cost, cwd. */
export function StatusBar({ state, agentName, cwd, width, keyHints = true }: StatusBarProps): React.ReactElement {
  const modes = cycleModes(state).length;
  const hint = modes > 1 && keyHints;
  const segments = fitSegments(barSegments(state, agentName, cwd), width, { mode: hint ? MODE_HINT.length : 0 });
  return (
    <Box width={width}>
      <Text wrap="truncate-end">
        {segments.map((s, i) => (
          <Text key={s.key}>
            {i > 0 ? <Text dimColor>{" · "}</Text> : null}
            <Text
              color={s.key === "agent" || s.key === "tasks" ? color("accent") : s.key === "mode" ? color("heading") : undefined}
              dimColor={s.key !== "agent" && s.key !== "mode" && s.key !== "tasks"}
              bold={s.key === "agent"}
            >
              {s.text}
            </Text>
            {s.key === "mode" && hint ? <Text dimColor>{MODE_HINT}</Text> : null}
          </Text>
        ))}
      </Text>
    </Box>
  );
}
