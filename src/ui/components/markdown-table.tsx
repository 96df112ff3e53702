import React from "react";
import { Box, Text } from "ink";
import type { Tokens } from "marked";
import { inlinePlainText, renderInline } from "./markdown-inline.js";
import { color } from "./theme.js";
import { displayWidth } from "./text-width.js";

const SEPARATOR = " │ ";
const MIN_COLUMN = 3;

/** A GFM table whose columns share `width`; cells that do not fit wrap inside their column. */
export function MarkdownTable({ token, width }: { token: Tokens.Table; width: number }): React.ReactElement {
  const natural = token.header.map((cell, col) =>
    Math.max(
      MIN_COLUMN,
      displayWidth(inlinePlainText(cell.tokens)),
      ...token.rows.map((row) => (row[col] ? longestLine(inlinePlainText(row[col].tokens)) : 0)),
    ),
  );
  const widths = fitColumns(natural, width - SEPARATOR.length * Math.max(0, natural.length - 1));
  const rule = widths.map((w) => "─".repeat(w)).join("─┼─");
  return (
    <Box flexDirection="column">
      <TableRow cells={token.header} widths={widths} header />
      <Text color={color("border")} dimColor>
        {rule}
      </Text>
      {token.rows.map((row, i) => (
        <TableRow key={i} cells={row} widths={widths} />
      ))}
    </Box>
  );
}

function TableRow({ cells, widths, header }: { cells: Tokens.TableCell[]; widths: number[]; header?: boolean }) {
  return (
    <Box flexDirection="row">
      {widths.map((w, col) => {
        const cell = cells[col];
        const justify = cell?.align === "right" ? "flex-end" : cell?.align === "center" ? "center" : "flex-start";
        return (
          // A left border (not a "│" character) so the separator grows with cells that wrap.
          <Box
            key={col}
            flexDirection="row"
            marginLeft={col > 0 ? 1 : 0}
            paddingLeft={col > 0 ? 1 : 0}
            borderStyle="single"
            borderTop={false}
            borderRight={false}
            borderBottom={false}
            borderLeft={col > 0}
            borderColor={color("border")}
            borderDimColor
          >
            <Box width={w} flexShrink={0} justifyContent={justify}>
              <Text bold={header}>{cell ? renderInline(cell.tokens, `c${col}`) : ""}</Text>
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

/**
 * Column widths within `available` cells: columns that fit their content keep it, the rest share
 * what is left evenly, never below a readable minimum.
 */
export function fitColumns(natural: number[], available: number): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= available || natural.length === 0) return natural;
  const widths = natural.slice();
  let open = natural.map((_, i) => i);
  let budget = Math.max(available, MIN_COLUMN * natural.length);
  // Columns narrower than an even share are settled first; their slack goes to the wide ones.
  for (;;) {
    const share = Math.floor(budget / open.length);
    const fitting = open.filter((i) => natural[i] <= share);
    if (fitting.length === 0) {
      let extra = budget - share * open.length;
      for (const i of open) {
        widths[i] = Math.max(MIN_COLUMN, share + (extra > 0 ? 1 : 0));
        extra -= 1;
      }
      return widths;
    }
    for (const i of fitting) budget -= natural[i];
    open = open.filter((i) => natural[i] > share);
    if (open.length === 0) return widths;
  }
}

function longestLine(text: string): number {
  return Math.max(0, ...text.split("\n").map(displayWidth));
}
