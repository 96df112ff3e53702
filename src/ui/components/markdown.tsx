import React, { useMemo } from "react";
import { Box, Text } from "ink";
import type { Token, Tokens } from "marked";
import { CodeBlock } from "./code-block.js";
import { decodeEntities, renderInline } from "./markdown-inline.js";
import { splitStreamingMarkdown } from "./markdown-split.js";
import { MarkdownTable } from "./markdown-table.js";
import { renderLibs } from "./render-libs.js";
import { color } from "./theme.js";

/** Props of a markdown view. */
export interface MarkdownProps {
  text: string;
  width: number;
  /** Still streaming: complete blocks stay memoized and only the open last block is re-lexed. */
  live?: boolean;
}

/** Markdown rendered as Ink elements. */
export const Markdown = React.memo(function Markdown({ text, width, live }: MarkdownProps): React.ReactElement {
  const { stable, tail } = live ? splitStreamingMarkdown(text) : { stable: text, tail: "" };
  const stableBlocks = useMemo(() => lexBlocks(stable), [stable]);
  const tailBlocks = useMemo(() => lexBlocks(tail), [tail]);
  return (
    <Box flexDirection="column" width={width}>
      {stableBlocks.map((token, i) => (
        <MarkdownBlock key={i} token={token} width={width} first={i === 0} />
      ))}
      {tailBlocks.map((token, i) => (
        <MarkdownBlock
          key={stableBlocks.length + i}
          token={token}
          width={width}
          first={stableBlocks.length + i === 0}
          streaming
        />
      ))}
    </Box>
  );
});

function lexBlocks(text: string): Token[] {
  if (text.trim() === "") return [];
  return renderLibs().Lexer.lex(text, { gfm: true }).filter((t) => t.type !== "space" && t.type !== "def");
}

interface BlockProps {
  token: Token;
  width: number;
  first: boolean;
  /** Part of the still-open tail: skip the expensive bits (syntax highlighting). */
  streaming?: boolean;
}

/** One top-level block; re-renders only when its source text, width or position changes. */
const MarkdownBlock = React.memo(
  function MarkdownBlock({ token, width, first, streaming }: BlockProps): React.ReactElement {
    return (
      <Box marginTop={first ? 0 : 1} flexDirection="column">
        <Block token={token} width={width} streaming={streaming === true} />
      </Box>
    );
  },
  (a, b) => a.token.raw === b.token.raw && a.width === b.width && a.first === b.first && a.streaming === b.streaming,
);

/** A block token as Ink elements; nested blocks (lists, quotes) recurse with less width. */
function Block({ token, width, streaming }: { token: Token; width: number; streaming: boolean }): React.ReactElement | null {
  switch (token.type) {
    case "heading":
      return (
        <Text bold underline={token.depth === 1} color={token.depth <= 2 ? color("heading") : undefined}>
          {renderInline(token.tokens)}
        </Text>
      );
    case "paragraph":
      return <Text>{renderInline(token.tokens)}</Text>;
    case "text":
      return <Text>{token.tokens ? renderInline(token.tokens) : decodeEntities(token.text)}</Text>;
    case "code":
      return <CodeBlock code={token.text} lang={token.lang} plain={streaming} />;
    case "blockquote":
      return (
        <Box
          flexDirection="column"
          borderStyle="single"
          borderTop={false}
          borderRight={false}
          borderBottom={false}
          borderColor={color("muted")}
          borderDimColor
          paddingLeft={1}
        >
          <BlockList tokens={token.tokens ?? []} width={width - 2} streaming={streaming} />
        </Box>
      );
    case "list":
      return <MarkdownList token={token as Tokens.List} width={width} streaming={streaming} depth={0} />;
    case "table":
      return <MarkdownTable token={token as Tokens.Table} width={width} />;
    case "hr":
      return <Text dimColor>{"─".repeat(Math.max(1, width))}</Text>;
    case "html":
      return <Text dimColor>{token.text.replace(/\n+$/, "")}</Text>;
    case "space":
    case "def":
      return null;
    default:
      return <Text>{token.raw.replace(/\n+$/, "")}</Text>;
  }
}

/** Blocks inside a container, separated by one blank line like the top level. */
function BlockList({ tokens, width, streaming }: { tokens: Token[]; width: number; streaming: boolean }) {
  const blocks = tokens.filter((t) => t.type !== "space" && t.type !== "checkbox");
  return (
    <Box flexDirection="column">
      {blocks.map((t, i) => (
        <Box key={i} marginTop={i === 0 || t.type === "list" ? 0 : 1} flexDirection="column">
          {t.type === "list" ? (
            <MarkdownList token={t as Tokens.List} width={width} streaming={streaming} depth={1} />
          ) : (
            <Block token={t} width={width} streaming={streaming} />
          )}
        </Box>
      ))}
    </Box>
  );
}

const BULLETS = ["•", "◦", "▪"];

/** Ordered, unordered and task lists; nested lists indent under their item's text. */
function MarkdownList(props: { token: Tokens.List; width: number; streaming: boolean; depth: number }): React.ReactElement {
  const { token, width, streaming, depth } = props;
  const start = typeof token.start === "number" ? token.start : 1;
  const markers = token.items.map((item, i) => {
    if (item.task) return item.checked ? "☑" : "☐";
    return token.ordered ? `${start + i}.` : (BULLETS[depth % BULLETS.length] ?? "•");
  });
  const markerWidth = Math.max(...markers.map((m) => m.length)) + 1;
  return (
    <Box flexDirection="column">
      {token.items.map((item, i) => (
        <Box key={i} flexDirection="row" marginTop={token.loose && i > 0 ? 1 : 0}>
          <Box width={markerWidth} flexShrink={0}>
            <Text color={item.task && item.checked ? color("success") : color("accent")}>{markers[i]}</Text>
          </Box>
          <Box flexDirection="column" width={Math.max(1, width - markerWidth)}>
            <ListItemBody item={item} width={width - markerWidth} streaming={streaming} depth={depth} />
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function ListItemBody(props: { item: Tokens.ListItem; width: number; streaming: boolean; depth: number }) {
  const { item, width, streaming, depth } = props;
  const blocks = item.tokens.filter((t) => t.type !== "space" && t.type !== "checkbox");
  const done = item.task && item.checked;
  return (
    <Box flexDirection="column">
      {blocks.map((t, i) =>
        t.type === "list" ? (
          <MarkdownList key={i} token={t as Tokens.List} width={width} streaming={streaming} depth={depth + 1} />
        ) : (
          <Box key={i} marginTop={i > 0 && item.loose ? 1 : 0} flexDirection="column">
            {done && (t.type === "text" || t.type === "paragraph") ? (
              <Text dimColor strikethrough>
                {renderInline((t as Tokens.Text).tokens ?? [t])}
              </Text>
            ) : (
              <Block token={t} width={width} streaming={streaming} />
            )}
          </Box>
        ),
      )}
    </Box>
  );
}
