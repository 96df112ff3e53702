import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Lexer } from "marked";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { highlightCode, markdownRows, type MarkdownMemo } from "../../../src/ui/render/markdown-rows.js";
import { MarkdownCutter, SOFT_CUT_LINES } from "../../../src/ui/render/markdown-split.js";
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

  it("while streaming, cuts the text into segments that later text cannot change", () => {
    const cuts = (text: string, final = false) => {
      const cutter = new MarkdownCutter();
      const segs = cutter.advance(text, final).map((s) => [s.kind, s.text, s.join]);
      return { segs, tail: cutter.tail(text).text };
    };
    expect(cuts("para one\n\npara tw")).toEqual({ segs: [["md", "para one\n\n", "soft"]], tail: "para tw" });
    // A blank line in a fence is code; the fenced block is cut after its closing line.
    expect(cuts("intro\n\n```ts\nconst a = 1;\n\nconst b")).toEqual({
      segs: [["md", "intro\n\n", "soft"]],
      tail: "```ts\nconst a = 1;\n\nconst b",
    });
    expect(cuts("```\ncode\n```\nafter")).toEqual({ segs: [["md", "```\ncode\n```\n", "soft"]], tail: "after" });
    // The items of a loose list, and a list item's indented paragraph, stay together.
    expect(cuts("- a\n\n- b\n\n  more of b\n").segs).toEqual([]);
    // A paragraph longer than SOFT_CUT_LINES is cut before its last complete line, never inside inline markup.
    const lines = Array.from({ length: SOFT_CUT_LINES + 3 }, (_, i) => `line ${i}`);
    expect(cuts(`${lines.join("\n")}\n`).segs).toEqual([["md", `${lines.slice(0, SOFT_CUT_LINES).join("\n")}\n`, "soft"]]);
    const bold = ["**bold starts", ...lines.slice(1, SOFT_CUT_LINES), "and ends**", "after"];
    expect(cuts(`${bold.join("\n")}\n`).segs).toEqual([["md", `${bold.slice(0, SOFT_CUT_LINES + 1).join("\n")}\n`, "soft"]]);
    // A long fenced block: its lines go out in groups, drawn as code of the same language.
    const code = Array.from({ length: SOFT_CUT_LINES * 2 }, (_, i) => `x${i} = ${i}`);
    const fenced = cuts(`\`\`\`py\n${code.join("\n")}\n\`\`\`\nafter\n`, true);
    expect(fenced.segs.map(([kind, text]) => [kind, String(text).split("\n").length - 1])).toEqual([
      ["md", SOFT_CUT_LINES + 1],
      ["code", SOFT_CUT_LINES],
    ]);
    expect(fenced.tail).toBe("after\n");
  });

  it("a long streamed message ends in the rows it had while streaming, and each frame draws only its tail", () => {
    const para = (n: number) => Array.from({ length: 12 }, (_, i) => `Paragraph ${n}, line ${i} with **bold** and \`code\`.`).join("\n");
    const code = `\`\`\`ts\n${Array.from({ length: 30 }, (_, i) => `const v${i} = ${i};`).join("\n")}\n\`\`\``;
    const doc = [para(1), "# Heading", para(2), code, "- one\n- two\n\n- three", para(3)].join("\n\n");
    const memo: MarkdownMemo = {};
    const lex = vi.spyOn(Lexer, "lex");
    let longest = 0;
    for (let end = 5; end < doc.length; end += 5) {
      const before = lex.mock.calls.length;
      markdownRows(doc.slice(0, end), 60, { live: true, memo });
      for (const call of lex.mock.calls.slice(before)) longest = Math.max(longest, String(call[0]).length);
    }
    lex.mockRestore();
    // No frame lexed more than a few lines (the whole document is 5 kB).
    expect(longest).toBeLessThan(1200);
    const streamed = markdownRows(doc, 60, { live: false, memo });
    expect(streamed).toEqual(markdownRows(doc, 60));
  });

  it("does not highlight code when NO_COLOR is set", () => {
    process.env.NO_COLOR = "1";
    const code = "const a = 1;";
    expect(highlightCode(code, "ts", false)).toBe(code);
    // Backticks set code apart when colour cannot, even on a terminal that has it.
    expect(atColorLevel(1, () => markdownRows("`x`", 60))).toEqual(["`x`"]);
  });
});
