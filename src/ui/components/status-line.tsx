import React from "react";
import { Box, Text } from "ink";
import type { StatusView } from "../status/status-text.js";
import { formatElapsed } from "../status/status-text.js";
import { color } from "./theme.js";
import { useElapsed } from "./use-elapsed.js";
import { useSpinner } from "./use-spinner.js";
import { safeLine } from "../../text/terminal-safe.js";

/** Props of the status line. */
export interface StatusLineProps {
  view: StatusView | null;
  width: number;
}

/** What the agent is doing right now: a spinner, the turn's elapsed time, what it waits on, and the keys that help. */
export function StatusLine({ view, width }: StatusLineProps): React.ReactElement | null {
  const busy = view?.busy === true;
  const spinner = useSpinner(busy);
  const elapsed = useElapsed(view?.since ?? Date.now(), busy && view?.since !== undefined);
  if (!view) return null;
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
