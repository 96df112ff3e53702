import React, { useMemo } from "react";
import { Box, Text } from "ink";
import { renderInline } from "./markdown-inline.js";
import { renderLibs } from "./render-libs.js";

/** Props of an agent's thought. */
export interface ThoughtViewProps {
  text: string;
  width: number;
  /** Show every line instead of the first one. */
  expanded?: boolean;
}

/** The agent's reasoning, dimmed and italic; collapsed to its first line unless expanded. */
export const ThoughtView = React.memo(function ThoughtView({ text, width, expanded }: ThoughtViewProps): React.ReactElement | null {
  // Leading and trailing blank lines carry nothing (some agents open every summary with them).
  const lines = text.replace(/^\s*\n/, "").replace(/\s+$/, "").split("\n");
  const shown = expanded ? lines : lines.slice(0, 1);
  const more = lines.length - shown.length;
  // Only inline markdown: reasoning summaries use **bold** titles, and block layout would fight the dim style.
  const visible = shown.join("\n");
  const rendered = useMemo(() => renderInline(renderLibs().Lexer.lexInline(visible)), [visible]);
  if (lines.length === 1 && lines[0].trim() === "") return null;
  return (
    <Box flexDirection="row" width={width}>
      <Box width={2} flexShrink={0}>
        <Text dimColor>✻</Text>
      </Box>
      <Box flexDirection="column">
        <Text dimColor italic>
          {rendered}
        </Text>
        {more > 0 ? <Text dimColor>{`(${more} more line${more === 1 ? "" : "s"})`}</Text> : null}
      </Box>
    </Box>
  );
});
