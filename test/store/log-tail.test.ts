import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LogTail } from "../../src/store/log-tail.js";
import { headerLine, LOG_FORMAT } from "../../src/store/log-format.js";
import { tempDir } from "../support/run-conch.js";

type Ev = { type: string; n?: number };

const tails: LogTail<Ev>[] = [];
afterEach(() => {
  for (const t of tails.splice(0)) t.close();
});

function follow(file: string) {
  const seen: Ev[] = [];
  const gone: string[] = [];
  const tail = new LogTail<Ev>(file, { onEvents: (evs) => seen.push(...evs), onGone: (r) => gone.push(r) });
  tails.push(tail);
  tail.start();
  return { tail, seen, gone };
}

describe("following a log another process appends to", () => {
  it("reports what is there at once, then each appended line, in order", () => {
    const file = path.join(tempDir(), "s.jsonl");
    writeFileSync(file, `${JSON.stringify({ type: "a", n: 1 })}\n${JSON.stringify({ type: "a", n: 2 })}\n`);
    const { tail, seen } = follow(file);
    expect(seen.map((e) => e.n)).toEqual([1, 2]);
    appendFileSync(file, `${JSON.stringify({ type: "a", n: 3 })}\n`);
    tail.readNew();
    expect(seen.map((e) => e.n)).toEqual([1, 2, 3]);
  });

  it("waits for the newline of a line still being written, and skips a corrupt one", () => {
    const file = path.join(tempDir(), "s.jsonl");
    writeFileSync(file, "");
    const { tail, seen } = follow(file);
    const line = JSON.stringify({ type: "chunk", n: 1 });
    appendFileSync(file, line.slice(0, 7));
    tail.readNew();
    expect(seen).toEqual([]);
    appendFileSync(file, `${line.slice(7)}\n{not json\n["an array"]\n`);
    tail.readNew();
    expect(seen).toEqual([{ type: "chunk", n: 1 }]);
    expect(tail.skipped).toBe(2);
  });

  it("keeps a character split across two reads whole", () => {
    const file = path.join(tempDir(), "s.jsonl");
    writeFileSync(file, "");
    const { tail, seen } = follow(file);
    const bytes = Buffer.from(`${JSON.stringify({ type: "é🙂" })}\n`);
    appendFileSync(file, bytes.subarray(0, 12));
    tail.readNew();
    appendFileSync(file, bytes.subarray(12));
    tail.readNew();
    expect(seen).toEqual([{ type: "é🙂" }]);
  });

  it("hears appended lines without being asked (a change notification or the poll)", async () => {
    const file = path.join(tempDir(), "s.jsonl");
    writeFileSync(file, "");
    const { seen } = follow(file);
    appendFileSync(file, `${JSON.stringify({ type: "late" })}\n`);
    await expect.poll(() => seen.length, { timeout: 5000 }).toBe(1);
  });

  it("says so when the log is deleted, after reporting what it got", () => {
    const file = path.join(tempDir(), "s.jsonl");
    writeFileSync(file, "");
    const { tail, seen, gone } = follow(file);
    appendFileSync(file, `${JSON.stringify({ type: "last" })}\n`);
    rmSync(file);
    tail.readNew();
    expect(seen).toEqual([{ type: "last" }]);
    expect(gone).toEqual(["the session was deleted"]);
  });

  it("takes a versioned log's header as the header, not as a corrupt event", () => {
    const file = path.join(tempDir(), "s.jsonl");
    writeFileSync(file, `${headerLine()}\n${JSON.stringify({ type: "a", n: 1 })}\n`);
    const { tail, seen } = follow(file);
    expect(seen).toEqual([{ type: "a", n: 1 }]);
    expect(tail.skipped).toBe(0);
  });

  it("stops following, saying why, when a log that was empty turns out to be from a newer conch", () => {
    const file = path.join(tempDir(), "s.jsonl");
    writeFileSync(file, "");
    const { tail, seen, gone } = follow(file);
    appendFileSync(file, `${JSON.stringify({ conch_log: LOG_FORMAT + 1 })}\n${JSON.stringify({ type: "a" })}\n`);
    tail.readNew();
    expect(seen).toEqual([]);
    expect(gone).toEqual([expect.stringMatching(/log format 2\); .*update conch/)]);
  });
});
