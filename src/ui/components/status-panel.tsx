import React from "react";
import { Box, Text } from "ink";
import { color } from "../render/theme.js";
import { safeText } from "../../text/terminal-safe.js";
import { footer } from "../shell/key-bindings.js";

/** Props of the message panel. */
export interface StatusPanelProps {
  lines: string[];
  tone: "info" | "error";
  width: number;
  /** Lines shown at most; the rest is summarised. */
  maxLines: number;
}

/** Output of conch's own commands (/help, /mode, /sessions…), shown until the next prompt or Esc. */
export function StatusPanel({ lines, tone, width, maxLines }: StatusPanelProps): React.ReactElement {
  const max = Math.max(1, maxLines);
  const shown = lines.length > max ? lines.slice(0, max - 1) : lines;
  const hidden = lines.length - shown.length;
  return (
    <Box
      flexDirection="column"
      width={width}
      borderStyle="round"
      borderColor={tone === "error" ? color("error") : color("border")}
      borderDimColor={tone !== "error"}
      paddingX={1}
    >
      {shown.map((line, i) => (
        <Text key={i} color={tone === "error" ? color("error") : undefined} wrap="truncate-end">
          {safeText(line) || " "}
        </Text>
      ))}
      {hidden > 0 ? <Text dimColor>{`… ${hidden} more line${hidden > 1 ? "s" : ""}`}</Text> : null}
      <Text dimColor>{footer([["cancel", "to close"]])}</Text>
    </Box>
  );
}
