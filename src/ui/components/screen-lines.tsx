import React from "react";
import { Text } from "ink";
import type { ScreenLine } from "../../terminals/terminal-screen.js";
import { inkColor } from "./screen-colors.js";
import { colorsEnabled } from "./theme.js";

/** One terminal row with its colours and attributes; an empty row still takes its line. */
export function ScreenRow({ line }: { line: ScreenLine }): React.ReactElement {
  if (line.length === 0) return <Text> </Text>;
  const colors = colorsEnabled();
  return (
    <Text wrap="truncate-end">
      {line.map((seg, i) => (
        <Text
          key={i}
          color={colors ? inkColor(seg.fg) : undefined}
          backgroundColor={colors ? inkColor(seg.bg) : undefined}
          bold={seg.bold}
          dimColor={seg.dim}
          italic={seg.italic}
          underline={seg.underline}
          inverse={seg.inverse}
        >
          {seg.text}
        </Text>
      ))}
    </Text>
  );
}

/** Plain text of a row, for summaries and tests. */
export function rowText(line: ScreenLine): string {
  return line.map((s) => s.text).join("");
}
