import React from "react";
import { Box, Text } from "ink";
import { cycleModes } from "../../session/session-modes.js";
import type { SessionState } from "../../session/state.js";
import { barSegments, type BarSegment } from "../status/session-facts.js";
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

/** Which segments give way first when the bar is too narrow. */
const DROP_ORDER: BarSegment["key"][] = ["cost", "title", "context", "model", "cwd", "tasks", "mode"];

function fit(segments: BarSegment[], width: number): BarSegment[] {
  const out = [...segments];
  const length = () => out.reduce((n, s) => n + s.text.length, 0) + (out.length - 1) * 3;
  for (const key of DROP_ORDER) {
    if (length() <= width) break;
    const i = out.findIndex((s) => s.key === key);
    if (i >= 0) out.splice(i, 1);
  }
  return out;
}

/** One dim line of facts: agent, session title, mode, model, context use and cost, cwd. */
export function StatusBar({ state, agentName, cwd, width, keyHints = true }: StatusBarProps): React.ReactElement {
  const segments = fit(barSegments(state, agentName, cwd), width);
  const modes = cycleModes(state).length;
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
            {s.key === "mode" && modes > 1 && keyHints ? <Text dimColor>{" (shift+tab)"}</Text> : null}
          </Text>
        ))}
      </Text>
    </Box>
  );
}
