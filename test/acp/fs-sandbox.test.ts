import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync, openSync, writeSync, closeSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_READ_BYTES, readTextFile, writeTextFile } from "../../src/acp/fs-handlers.js";
import { tempDir } from "../support/run-conch.js";
import { startSymlinkSwapper } from "./support/symlink-swapper.js";

const sid = "s";
let stopSwapper: (() => void) | undefined;
afterEach(() => {
  stopSwapper?.();
  stopSwapper = undefined;
});

/** A workspace with `d/f.txt` inside, and a directory outside it holding a secret `f.txt`. */
function hostileWorkspace(): { root: string; outside: string } {
  const root = tempDir("conch-ws-");
  const outside = tempDir("conch-outside-");
  mkdirSync(path.join(root, "d"));
  writeFileSync(path.join(root, "d/f.txt"), "inside");
  writeFileSync(path.join(outside, "f.txt"), "SECRET OUTSIDE");
  return { root, outside };
}

describe("the workspace boundary under a symlink swapped between check and open", () => {
  it("no read ever returns the outside file while another process swaps a directory for a symlink", async () => {
    const { root, outside } = hostileWorkspace();
    stopSwapper = (await startSymlinkSwapper(root, "d", outside)).stop;
    const outcomes = { inside: 0, refused: 0, leaked: 0 };
    for (let i = 0; i < 2000; i++) {
      try {
        const { content } = await readTextFile(root, { sessionId: sid, path: path.join(root, "d/f.txt") });
        if (content.includes("SECRET")) outcomes.leaked++;
        else outcomes.inside++;
      } catch {
        outcomes.refused++;
      }
    }
    expect(outcomes.leaked).toBe(0);
    // Both sides of the race were really met.
    expect(outcomes.inside).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  });

  it("no write ever lands outside while another process swaps the target's directory", async () => {
    const { root, outside } = hostileWorkspace();
    stopSwapper = (await startSymlinkSwapper(root, "d", outside)).stop;
    let written = 0;
    // Ten at a time: more writes in flight, more of them straddle a swap. At least 80 batches, and on
    // until one write has landed inside (on a loaded machine every write of 80 batches can meet the link).
    for (let batch = 0; batch < 80 || (written === 0 && batch < 2000); batch++) {
      const writes = Array.from({ length: 10 }, (_, i) =>
        writeTextFile(root, { sessionId: sid, path: path.join(root, `d/new-${batch}-${i}.txt`), content: "agent text" }),
      );
      for (const r of await Promise.allSettled(writes)) if (r.status === "fulfilled") written++;
    }
    stopSwapper();
    expect(readdirSync(outside)).toEqual(["f.txt"]);
    expect(readFileSync(path.join(outside, "f.txt"), "utf8")).toBe("SECRET OUTSIDE");
    expect(written).toBeGreaterThan(0);
  });

  it("a dangling symlink, or one to a file outside, is never written through", async () => {
    const { root, outside } = hostileWorkspace();
    execFileSync("ln", ["-s", path.join(outside, "f.txt"), path.join(root, "to-secret")]);
    execFileSync("ln", ["-s", path.join(outside, "missing.txt"), path.join(root, "dangling")]);
    await expect(writeTextFile(root, { sessionId: sid, path: path.join(root, "to-secret"), content: "x" })).rejects.toThrow(
      /outside the workspace/,
    );
    await expect(writeTextFile(root, { sessionId: sid, path: path.join(root, "dangling"), content: "x" })).rejects.toMatchObject({
      code: -32602,
    });
    expect(readdirSync(outside)).toEqual(["f.txt"]);
  });
});

describe("odd files", () => {
  it("a FIFO is refused with a clear error at once, and the reads after it still run (no thread-pool stall)", async () => {
    const root = tempDir("conch-ws-");
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    writeFileSync(path.join(root, "ok.txt"), "fine");
    // More FIFO reads than libuv has threads: one blocked open each would stall everything after.
    const fifoReads = Array.from({ length: 8 }, () => readTextFile(root, { sessionId: sid, path: path.join(root, "pipe") }));
    for (const r of await Promise.allSettled(fifoReads)) {
      expect(r.status).toBe("rejected");
      expect((r as PromiseRejectedResult).reason).toMatchObject({
        code: -32602,
        message: expect.stringContaining("is a FIFO, not a regular file"),
      });
    }
    expect((await readTextFile(root, { sessionId: sid, path: path.join(root, "ok.txt") })).content).toBe("fine");
  });

  it("a FIFO, a directory and a device are never written through", async () => {
    const root = tempDir("conch-ws-");
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    mkdirSync(path.join(root, "dir"));
    await expect(writeTextFile(root, { sessionId: sid, path: path.join(root, "pipe"), content: "x" })).rejects.toThrow(
      /is a FIFO, not a regular file/,
    );
    await expect(writeTextFile(root, { sessionId: sid, path: path.join(root, "dir"), content: "x" })).rejects.toThrow(/is a directory/);
    expect(statSync(path.join(root, "pipe")).isFIFO()).toBe(true);
    await expect(readTextFile(root, { sessionId: sid, path: path.join(root, "dir") })).rejects.toThrow(/is a directory/);
  });

  it("a 1 GB sparse file is refused with the size cap, without reading it into memory", async () => {
    const root = tempDir("conch-ws-");
    const big = path.join(root, "big.bin");
    writeFileSync(big, "first\nsecond\n");
    truncateSync(big, 1024 ** 3);
    const before = process.memoryUsage().rss;
    const err = await readTextFile(root, { sessionId: sid, path: big }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: -32602,
      message: expect.stringMatching(
        /big\.bin is 1024\.0 MiB, more than one read returns \(10\.0 MiB\): read it in parts with line and limit/,
      ),
    });
    // line/limit read just the lines asked for, even from a file far over the cap.
    expect((await readTextFile(root, { sessionId: sid, path: big, line: 2, limit: 1 })).content).toBe("second");
    // The third "line" is a gigabyte of NULs: refused once it passes the cap, not read whole.
    await expect(readTextFile(root, { sessionId: sid, path: big, line: 3, limit: 1 })).rejects.toThrow(
      /the requested lines of .* hold more than one read returns/,
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
  });

  it("line and limit are honoured while streaming a large file, with the same answer as slicing it", async () => {
    const root = tempDir("conch-ws-");
    const file = path.join(root, "lines.txt");
    const fd = openSync(file, "w");
    const lines: string[] = [];
    for (let i = 1; i <= 200_000; i++) lines.push(`line ${i} ${"é".repeat(i % 7)}`);
    writeSync(fd, `${lines.join("\n")}\n`);
    closeSync(fd);
    const text = readFileSync(file, "utf8");
    const slice = (line: number, limit?: number) =>
      text
        .split("\n")
        .slice(line - 1, limit === undefined ? undefined : line - 1 + limit)
        .join("\n");
    for (const [line, limit] of [
      [1, 1],
      [2, 3],
      [65_000, 5],
      [199_999, 10],
      [200_001, 1],
      [300_000, 2],
      [5, 0],
    ] as const) {
      expect((await readTextFile(root, { sessionId: sid, path: file, line, limit })).content).toBe(slice(line, limit));
    }
    expect((await readTextFile(root, { sessionId: sid, path: file, line: 199_990 })).content).toBe(slice(199_990));
    expect((await readTextFile(root, { sessionId: sid, path: file })).content).toBe(text);
    expect(MAX_READ_BYTES).toBe(10 * 1024 * 1024);
  });

  it("the size cap counts what is returned: a small cap refuses a long window but not a short one", async () => {
    const root = tempDir("conch-ws-");
    writeFileSync(path.join(root, "a.txt"), "x".repeat(100) + "\nshort\n");
    const file = path.join(root, "a.txt");
    await expect(readTextFile(root, { sessionId: sid, path: file }, { maxBytes: 50 })).rejects.toMatchObject({ code: -32602 });
    expect((await readTextFile(root, { sessionId: sid, path: file, line: 2, limit: 1 }, { maxBytes: 50 })).content).toBe("short");
  });
});

describe("writes keep what they kept before", () => {
  it("an existing file keeps its mode, a new one gets 0644 under the umask; no temp file is left", async () => {
    const root = tempDir("conch-ws-");
    const file = path.join(root, "run.sh");
    writeFileSync(file, "#!/bin/sh\n", { mode: 0o750 });
    await writeTextFile(root, { sessionId: sid, path: file, content: "#!/bin/sh\necho hi\n" });
    expect(statSync(file).mode & 0o777).toBe(0o750);
    expect(readFileSync(file, "utf8")).toContain("echo hi");
    await writeTextFile(root, { sessionId: sid, path: path.join(root, "a/b/c.txt"), content: "deep" });
    expect(readFileSync(path.join(root, "a/b/c.txt"), "utf8")).toBe("deep");
    expect(readdirSync(root).sort()).toEqual(["a", "run.sh"]);
  });
});
