import React, { useMemo } from "react";
import { Box, Text } from "ink";
import { renderLibs } from "./render-libs.js";
import { colorsEnabled } from "./theme.js";

/** Props of a fenced code block. */
export interface CodeBlockProps {
  code: string;
  /** The fence's info string; only its first word names the language. */
  lang?: string;
  /** Skip highlighting: the block is still streaming and would be re-highlighted on every chunk. */
  plain?: boolean;
}

/** A fenced code block, indented, syntax highlighted by its fence language when colours are on. */
export const CodeBlock = React.memo(function CodeBlock({ code, lang, plain }: CodeBlockProps): React.ReactElement {
  const language = lang?.trim().split(/\s+/)[0] ?? "";
  const shown = useMemo(() => highlightCode(code, language, plain === true), [code, language, plain]);
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {language ? <Text dimColor>{language}</Text> : null}
      <Text>{shown}</Text>
    </Box>
  );
});

/** Highlighted code as ANSI text, or the code unchanged when it cannot or should not be highlighted. */
export function highlightCode(code: string, language: string, plain: boolean): string {
  const text = code.replace(/\n+$/, "");
  if (plain || !language || !colorsEnabled()) return text;
  const { highlight, supportsLanguage } = renderLibs();
  if (!supportsLanguage(language)) return text;
  try {
    return highlight(text, { language, ignoreIllegals: true });
  } catch {
    // A grammar that chokes on partial or odd input must not take the transcript down with it.
    return text;
  }
}
