import { lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultExportName, freeExportPath, writeExport } from "../../src/export/export-file.js";
import { tempDir } from "../support/run-conch.js";

const DAY = new Date(2025, 0, 31, 15).getTime();

describe("the export file", () => {
  it("is named conch-<id prefix>-<date>.md by default, numbered past files already there", () => {
    expect(defaultExportName("01a2b3c4d5e6", DAY)).toBe("conch-01a2b3c4-2025-01-31.md");
    const dir = tempDir();
    expect(freeExportPath(dir, "01a2b3c4d5e6", DAY)).toBe(path.join(dir, "conch-01a2b3c4-2025-01-31.md"));
    writeFileSync(path.join(dir, "conch-01a2b3c4-2025-01-31.md"), "mine");
    writeFileSync(path.join(dir, "conch-01a2b3c4-2025-01-31-2.md"), "mine too");
    expect(freeExportPath(dir, "01a2b3c4d5e6", DAY)).toBe(path.join(dir, "conch-01a2b3c4-2025-01-31-3.md"));
  });

  it("is written readable by its owner only", () => {
    const file = path.join(tempDir(), "out.md");
    expect(writeExport(file, "# hi\n", false)).toEqual({ replaced: false });
    expect(readFileSync(file, "utf8")).toBe("# hi\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("never replaces a file without --force, and says so", () => {
    const file = path.join(tempDir(), "notes.md");
    writeFileSync(file, "my notes");
    expect(() => writeExport(file, "# export\n", false)).toThrow(
      /notes\.md already exists: give another name, or add --force to replace it/,
    );
    expect(readFileSync(file, "utf8")).toBe("my notes");
    expect(writeExport(file, "# export\n", true)).toEqual({ replaced: true });
    expect(readFileSync(file, "utf8")).toBe("# export\n");
  });

  it("replaces a symlink itself with --force, never the file it points to", () => {
    const dir = tempDir();
    const precious = path.join(dir, "precious.txt");
    writeFileSync(precious, "keep me");
    const link = path.join(dir, "out.md");
    symlinkSync(precious, link);
    expect(() => writeExport(link, "x", false)).toThrow(/already exists/);
    writeExport(link, "# export\n", true);
    expect(readFileSync(precious, "utf8")).toBe("keep me");
    expect(lstatSync(link).isSymbolicLink()).toBe(false);
    expect(readFileSync(link, "utf8")).toBe("# export\n");
  });
});
