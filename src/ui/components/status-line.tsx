import React from "react";
import { Box, Text } from "ink";
import type { StatusView } from "../status/status-text.js";
import { formatElapsed } from "../status/status-text.js";
import { useTicker } from "../hooks/use-ticker.js";
import { SPINNER_FRAMES, color } from "../render/theme.js";
import { safeLine } from "../../text/terminal-safe.js";

/** Props of the status line. */
export interface StatusLineProps {
  view: StatusView | null;
  width: number;
}

/** What the agent is doing right now: a spinner, the turn's elapsed time, what it waits on, and the keys that help. */
export function StatusLine({ view, width }: StatusLineProps): React.ReactElement | null {
  const busy = view?.busy === true;
  // The same ticker as the transcript's spinners: it runs only while the agent is busy.
  const { frame, now } = useTicker(busy);
  if (!view) return null;
  const spinner = SPINNER_FRAMES[frame % SPINNER_FRAMES.length];
  const elapsed = Math.max(0, now - (view.since ?? now));
  const tone = view.tone === "error" ? color("error") : view.tone === "warning" ? color("warning") : color("accent");
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        {busy ? <Text color={tone}>{`${spinner} `}</Text> : <Text color={tone}>{"✗ "}</Text>}
        <Text color={view.tone === "normal" ? undefined : tone}>{safeLine(view.text)}</Text>
        {busy && view.since !== undefined ? <Text dimColor>{` · ${formatElapsed(elapsed)}`}</Text> : null}
        {view.hints.length && busy ? <Text dimColor>{` · ${view.hints.join(" · ")}`}</Text> : null}
      </Text>
      {view.detail.map((line, i) => (
        <Text key={i} dimColor wrap="truncate-end">
          {`  ${safeLine(line)}`}
        </Text>
      ))}
      {/* A failure's way out gets a line of its own, so it is never cut off. */}
      {view.hints.length && !busy ? <Text color={color("warning")} wrap="wrap">{`  ${view.hints.join(" · ")}`}</Text> : null}
    </Box>
  );
}
