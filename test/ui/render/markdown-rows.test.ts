import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Lexer } from "marked";
import { loadRenderLibs } from "../../../src/ui/components/render-libs.js";
import { highlightCode, markdownRows, type MarkdownMemo } from "../../../src/ui/render/markdown-rows.js";
import { splitStreamingMarkdown } from "../../../src/ui/render/markdown-split.js";
import { fitColumns } from "../../../src/ui/render/markdown-table.js";
import { cellWidth } from "../../../src/ui/render/text.js";
import { atColorLevel, plainRows, sgr } from "./plain-rows.js";

// The App loads these before it draws the transcript; rows drawn alone need them first.
beforeAll(() => loadRenderLibs());

const DOC = `# Release notes

Some **bold**, *italic*, \`inline code\`, ~~old~~ and a [link](https://example.com) &amp; more.

- first item
- second item
  - nested item
- [x] done task
- [ ] open task

1. one
2. two

> a quoted line

| Name | Count |
|------|------:|
| alpha | 1 |
| beta | 22 |

---

\`\`\`ts
const answer: number = 42;

export function ask(): number {
  return answer;
}
\`\`\`

Closing paragraph.
`;

const plainOf = (text: string, width = 60) => plainRows(markdownRows(text, width));

afterEach(() => {
  delete process.env.NO_COLOR;
});

describe("markdown rows", () => {
  it("renders headings, inline styles, lists, tables, rules and code blocks", () => {
    const lines = plainOf(DOC).split("\n");
    expect(lines[0]).toBe("Release notes");
    expect(lines).toContain("Some bold, italic, inline code, old and a link");
    expect(lines).toContain("(https://example.com) & more.");
    expect(lines).toContain("• first item");
    expect(lines).toContain("  ◦ nested item");
    expect(lines).toContain("☑ done task");
    expect(lines).toContain("☐ open task");
    expect(lines).toContain("1. one");
    expect(lines).toContain("2. two");
    expect(lines).toContain("│ a quoted line");
    expect(lines).toContain("Name  │ Count");
    expect(lines).toContain("alpha │     1");
    expect(lines).toContain("beta  │    22");
    expect(lines).toContain("─".repeat(60));
    expect(lines).toContain("  ts");
    expect(lines).toContain("  const answer: number = 42;");
    expect(lines).toContain("    return answer;");
    expect(lines[lines.length - 1]).toBe("Closing paragraph.");
  });

  it("draws inline styles as the terminal's own attributes", () => {
    const [line] = atColorLevel(1, () => markdownRows("**bold** *italic* ~~old~~ `code`", 60));
    expect(line).toContain(`${sgr("1")}bold`);
    expect(line).toContain(`${sgr("3")}italic`);
    expect(line).toContain(`${sgr("9")}old`);
    expect(line).toContain(`${sgr("33")}code`);
  });

  it("fits a wide table into the width, wrapping cells", () => {
    const table = "| key | description |\n|---|---|\n| a | " + "word ".repeat(30).trim() + " |\n";
    const rows = markdownRows(table, 40);
    expect(Math.max(...rows.map(cellWidth))).toBeLessThanOrEqual(40);
    expect(rows.length).toBeGreaterThan(4);
    expect(fitColumns([3, 150], 37)).toEqual([3, 34]);
  });

  it("streaming the text in chunks ends in the same rows as rendering it whole", () => {
    const whole = markdownRows(DOC, 60);
    const memo: MarkdownMemo = {};
    let last: string[] = [];
    for (let end = 7; end < DOC.length + 7; end += 7) last = markdownRows(DOC.slice(0, end), 60, { live: true, memo });
    expect(last).toEqual(whole);
    expect(markdownRows(DOC, 60, { live: false })).toEqual(whole);
  });

  it("while streaming, complete blocks are not lexed again, only the open last one", () => {
    const stable = "First paragraph.\n\nSecond paragraph.\n\n";
    const memo: MarkdownMemo = {};
    markdownRows(`${stable}Third`, 60, { live: true, memo });
    const lex = vi.spyOn(Lexer, "lex");
    markdownRows(`${stable}Third par`, 60, { live: true, memo });
    markdownRows(`${stable}Third paragraph.`, 60, { live: true, memo });
    expect(lex.mock.calls.map((c) => c[0])).toEqual(["Third par", "Third paragraph."]);
    lex.mockRestore();
  });

  it("while streaming, splits at the last blank line outside a code fence", () => {
    expect(splitStreamingMarkdown("para one\n\npara tw")).toEqual({ stable: "para one\n\n", tail: "para tw" });
    expect(splitStreamingMarkdown("intro\n\n```ts\nconst a = 1;\n\nconst b")).toEqual({
      stable: "intro\n\n",
      tail: "```ts\nconst a = 1;\n\nconst b",
    });
    expect(splitStreamingMarkdown("```\ncode\n```\n\nafter")).toEqual({ stable: "```\ncode\n```\n\n", tail: "after" });
  });

  it("does not highlight code when NO_COLOR is set", () => {
    process.env.NO_COLOR = "1";
    const code = "const a = 1;";
    expect(highlightCode(code, "ts", false)).toBe(code);
    // Backticks set code apart when colour cannot, even on a terminal that has it.
    expect(atColorLevel(1, () => markdownRows("`x`", 60))).toEqual(["`x`"]);
  });
});
