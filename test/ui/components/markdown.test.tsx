import React from "react";
import { beforeAll, afterEach, describe, expect, it, vi } from "vitest";
import { Lexer } from "marked";
import { render } from "ink-testing-library";
import { Markdown } from "../../../src/ui/components/markdown.js";
import { splitStreamingMarkdown } from "../../../src/ui/components/markdown-split.js";
import { highlightCode } from "../../../src/ui/components/code-block.js";
import { fitColumns } from "../../../src/ui/components/markdown-table.js";
import { loadRenderLibs } from "../../../src/ui/components/render-libs.js";

// The App loads these after its first frame; a component drawn alone needs them first.
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

const frameOf = (text: string, width = 60, live = false) => {
  const view = render(<Markdown text={text} width={width} live={live} />);
  const frame = view.lastFrame() ?? "";
  view.unmount();
  return frame;
};

afterEach(() => {
  delete process.env.NO_COLOR;
});

describe("Markdown", () => {
  it("renders headings, inline styles, lists, tables, rules and code blocks", () => {
    const lines = frameOf(DOC).split("\n");
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

  it("fits a wide table into the width, wrapping cells", () => {
    const table = "| key | description |\n|---|---|\n| a | " + "word ".repeat(30).trim() + " |\n";
    const lines = frameOf(table, 40).split("\n");
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(40);
    expect(lines.length).toBeGreaterThan(4);
    expect(fitColumns([3, 150], 37)).toEqual([3, 34]);
  });

  it("streaming the text in chunks ends in the same frame as rendering it whole", async () => {
    const whole = frameOf(DOC);
    const view = render(<Markdown text="" width={60} live />);
    for (let end = 7; end < DOC.length + 7; end += 7) {
      view.rerender(<Markdown text={DOC.slice(0, end)} width={60} live />);
    }
    await new Promise((r) => setTimeout(r, 10));
    expect(view.lastFrame()).toBe(whole);
    view.rerender(<Markdown text={DOC} width={60} live={false} />);
    expect(view.lastFrame()).toBe(whole);
    view.unmount();
  });

  it("while streaming, complete blocks are not lexed again, only the open last one", () => {
    const stable = "First paragraph.\n\nSecond paragraph.\n\n";
    const view = render(<Markdown text={`${stable}Third`} width={60} live />);
    const lex = vi.spyOn(Lexer, "lex");
    view.rerender(<Markdown text={`${stable}Third par`} width={60} live />);
    view.rerender(<Markdown text={`${stable}Third paragraph.`} width={60} live />);
    expect(lex.mock.calls.map((c) => c[0])).toEqual(["Third par", "Third paragraph."]);
    lex.mockRestore();
    view.unmount();
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
    expect(frameOf("`x`")).toBe("`x`");
  });
});
