import { beforeAll, describe, expect, it } from "vitest";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { diffLines, diffRows } from "../../../src/ui/render/diff-rows.js";
import { CLAUDE_S3, finalState, toolByTitle } from "../components/fixtures.js";
import { atColorLevel, plainRows, sgr } from "./plain-rows.js";

// The App loads these before it draws the transcript; rows drawn alone need them first.
beforeAll(() => loadRenderLibs());

const s3 = finalState(CLAUDE_S3);
const diffOf = (title: string) => {
  const d = toolByTitle(s3, title).content.find((c) => c.type === "diff");
  if (d?.type !== "diff") throw new Error("no diff");
  return d;
};

describe("diff rows", () => {
  it("claude s3 Edit: a modified file shows - and + lines with old and new line numbers", () => {
    const d = diffOf("Edit hello.txt");
    const lines = plainRows(diffRows("hello.txt", d.oldText, d.newText, 80)).split("\n");
    expect(lines[0]).toBe("hello.txt +1 -1");
    expect(lines).toContain("@@ -1,3 +1,3 @@");
    expect(lines).toContain("1 1   line one");
    expect(lines).toContain("2   - line two");
    expect(lines).toContain("  2 + line 2 (edited by the fake model)");
    expect(lines).toContain("3 3   line three");
  });

  it("colours added lines green and removed lines red", () => {
    const d = diffOf("Edit hello.txt");
    const rows = atColorLevel(1, () => diffRows("hello.txt", d.oldText, d.newText, 80));
    expect(rows.find((r) => r.includes("line two"))).toContain(`${sgr("31")}line two`);
    expect(rows.find((r) => r.includes("line 2 (edited"))).toContain(`${sgr("32")}line 2 (edited`);
    expect(rows.find((r) => r.includes("line one"))).not.toMatch(/\u001b\[3[12]m/);
  });

  it("claude s3 Write: a new file (oldText null) is all added lines", () => {
    const d = diffOf("Write notes.md");
    expect(d.oldText).toBeNull();
    const out = plainRows(diffRows("notes.md", d.oldText, d.newText, 80));
    expect(out).toContain("notes.md (new file) +3 -0");
    expect(out).toContain("@@ -0,0 +1,3 @@");
    expect(out).toContain("  1 + # Notes");
    expect(out).toContain("  3 + hello.txt line two was edited.");
    expect(out).not.toMatch(/^\s*\d*\s+- /m);
  });

  it("a large diff is clipped at maxLines with a count of what is left", () => {
    const newText = Array.from({ length: 100 }, (_, i) => `new ${i + 1}`).join("\n");
    const out = plainRows(diffRows("big.txt", undefined, newText, 80, 10));
    expect(out).toContain("new 9");
    expect(out).not.toContain("new 10");
    // 101 diff lines (one hunk header + 100 added), 10 shown.
    expect(out).toContain("… 91 more lines");
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
