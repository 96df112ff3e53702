import React from "react";
import { beforeAll, describe, expect, it } from "vitest";
import { render } from "ink-testing-library";
import { DiffView, diffLines } from "../../../src/ui/components/diff-view.js";
import { CLAUDE_S3, finalState, toolByTitle } from "./fixtures.js";
import { loadRenderLibs } from "../../../src/ui/components/render-libs.js";

// The App loads these after its first frame; a component drawn alone needs them first.
beforeAll(() => loadRenderLibs());

const s3 = finalState(CLAUDE_S3);
const diffOf = (title: string) => {
  const d = toolByTitle(s3, title).content.find((c) => c.type === "diff");
  if (d?.type !== "diff") throw new Error("no diff");
  return d;
};

describe("DiffView", () => {
  it("claude s3 Edit: a modified file shows - and + lines with old and new line numbers", () => {
    const d = diffOf("Edit hello.txt");
    const frame = render(<DiffView path="hello.txt" oldText={d.oldText} newText={d.newText} width={80} />).lastFrame() ?? "";
    const lines = frame.split("\n");
    expect(lines[0]).toBe("hello.txt +1 -1");
    expect(lines).toContain("@@ -1,3 +1,3 @@");
    expect(lines).toContain("1 1   line one");
    expect(lines).toContain("2   - line two");
    expect(lines).toContain("  2 + line 2 (edited by the fake model)");
    expect(lines).toContain("3 3   line three");
  });

  it("claude s3 Write: a new file (oldText null) is all added lines", () => {
    const d = diffOf("Write notes.md");
    expect(d.oldText).toBeNull();
    const frame = render(<DiffView path="notes.md" oldText={d.oldText} newText={d.newText} width={80} />).lastFrame() ?? "";
    expect(frame).toContain("notes.md (new file) +3 -0");
    expect(frame).toContain("@@ -0,0 +1,3 @@");
    expect(frame).toContain("  1 + # Notes");
    expect(frame).toContain("  3 + hello.txt line two was edited.");
    expect(frame).not.toMatch(/^\s*\d*\s+- /m);
  });

  it("a large diff is clipped at maxLines with a count of what is left", () => {
    const newText = Array.from({ length: 100 }, (_, i) => `new ${i + 1}`).join("\n");
    const frame = render(<DiffView path="big.txt" newText={newText} width={80} maxLines={10} />).lastFrame() ?? "";
    expect(frame).toContain("new 9");
    expect(frame).not.toContain("new 10");
    // 101 diff lines (one hunk header + 100 added), 10 shown.
    expect(frame).toContain("… 91 more lines");
  });

  it("numbers lines of a change deep inside a file from the file's start", () => {
    const old = Array.from({ length: 50 }, (_, i) => `l${i + 1}`).join("\n");
    const next = old.replace("l40", "L40");
    const lines = diffLines(old, next);
    expect(lines[0]).toEqual({ kind: "hunk", text: "@@ -37,7 +37,7 @@" });
    expect(lines.find((l) => l.kind === "removed")).toMatchObject({ text: "l40", oldNo: 40 });
    expect(lines.find((l) => l.kind === "added")).toMatchObject({ text: "L40", newNo: 40 });
  });
});
