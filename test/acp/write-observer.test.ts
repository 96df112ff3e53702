import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readConfined, removeConfined, writeConfined } from "../../src/acp/confined-write.js";
import { writeTextFile, type WrittenFile } from "../../src/acp/fs-handlers.js";
import { tempDir } from "../support/run-conch.js";

const ws = (root: string, requested: string) => ({ root, realRoot: realpathSync(root), requested });

function observe(keepUpTo = 100): { seen: WrittenFile[]; observer: { keepUpTo: number; written(w: WrittenFile): void } } {
  const seen: WrittenFile[] = [];
  return { seen, observer: { keepUpTo, written: (w) => void seen.push(w) } };
}

describe("what an agent's write replaced (for undo)", () => {
  it("reports the earlier bytes of a file it overwrote, and `none` for a file it created", async () => {
    const root = realpathSync(tempDir("conch-ws-"));
    writeFileSync(path.join(root, "a.txt"), "before");
    const { seen, observer } = observe();
    await writeTextFile(root, { sessionId: "s", path: path.join(root, "a.txt"), content: "after" }, observer);
    await writeTextFile(root, { sessionId: "s", path: path.join(root, "new/b.txt"), content: "fresh" }, observer);
    expect(seen.map((w) => ({ ...w, replaced: w.replaced.kind === "file" ? w.replaced.bytes.toString() : w.replaced }))).toEqual([
      { path: path.join(root, "a.txt"), replaced: "before", content: "after" },
      { path: path.join(root, "new/b.txt"), replaced: { kind: "none" }, content: "fresh" },
    ]);
  });

  it("reports only the size of a file over the limit, and the write still happens", async () => {
    const root = realpathSync(tempDir("conch-ws-"));
    writeFileSync(path.join(root, "big.txt"), "x".repeat(50));
    const { seen, observer } = observe(10);
    await writeTextFile(root, { sessionId: "s", path: "big.txt", content: "small" }, observer);
    expect(seen[0].replaced).toEqual({ kind: "too_large", size: 50 });
    expect(readFileSync(path.join(root, "big.txt"), "utf8")).toBe("small");
  });

  it("an observer that fails does not fail the agent's write", async () => {
    const root = realpathSync(tempDir("conch-ws-"));
    const observer = { keepUpTo: 100, written: () => Promise.reject(new Error("disk full")) };
    await expect(writeTextFile(root, { sessionId: "s", path: "a.txt", content: "ok" }, observer)).resolves.toEqual({});
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("ok");
  });
});

describe("undo's reads, writes and deletes stay in the workspace", () => {
  it("reads a file's bytes, `none` for a missing one, and refuses a symlink leading out", async () => {
    const root = realpathSync(tempDir("conch-ws-"));
    const outside = realpathSync(tempDir("conch-outside-"));
    writeFileSync(path.join(outside, "secret"), "SECRET");
    writeFileSync(path.join(root, "a.txt"), "inside");
    symlinkSync(path.join(outside, "secret"), path.join(root, "link"));
    expect(await readConfined(ws(root, "a.txt"), path.join(root, "a.txt"), 100)).toEqual({ kind: "file", bytes: Buffer.from("inside") });
    expect(await readConfined(ws(root, "gone"), path.join(root, "no/such/file"), 100)).toEqual({ kind: "none" });
    await expect(readConfined(ws(root, "link"), path.join(root, "link"), 100)).rejects.toThrow(/symbolic link/);
    mkdirSync(path.join(root, "d"));
    symlinkSync(outside, path.join(root, "d/out"));
    await expect(readConfined(ws(root, "d/out/secret"), path.join(root, "d/out/secret"), 100)).rejects.toThrow(/outside the workspace/);
  });

  it("removes a regular file only: not a symlink, not a directory, and not through a symlink leading out", async () => {
    const root = realpathSync(tempDir("conch-ws-"));
    const outside = realpathSync(tempDir("conch-outside-"));
    writeFileSync(path.join(outside, "secret"), "SECRET");
    writeFileSync(path.join(root, "a.txt"), "inside");
    symlinkSync(path.join(outside, "secret"), path.join(root, "link"));
    symlinkSync(outside, path.join(root, "out"));
    mkdirSync(path.join(root, "dir"));
    await expect(removeConfined(ws(root, "link"), path.join(root, "link"))).rejects.toThrow(/symbolic link/);
    await expect(removeConfined(ws(root, "dir"), path.join(root, "dir"))).rejects.toThrow(/directory/);
    await expect(removeConfined(ws(root, "out/secret"), path.join(root, "out/secret"))).rejects.toThrow(/outside the workspace/);
    expect(existsSync(path.join(outside, "secret"))).toBe(true);
    expect(await removeConfined(ws(root, "a.txt"), path.join(root, "a.txt"))).toBe(true);
    expect(existsSync(path.join(root, "a.txt"))).toBe(false);
    expect(await removeConfined(ws(root, "a.txt"), path.join(root, "a.txt"))).toBe(false);
  });

  it("writes bytes back as they were (undo restores binary content too)", async () => {
    const root = realpathSync(tempDir("conch-ws-"));
    const bytes = Buffer.from([0, 1, 2, 255, 254]);
    await writeConfined(ws(root, "bin"), path.join(root, "bin"), bytes);
    expect(readFileSync(path.join(root, "bin"))).toEqual(bytes);
  });
});
