import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSessionLog, readSessionLog, SessionLogWriter } from "../../src/store/session-log.js";
import { headerLine, LOG_FORMAT, NewerLogError } from "../../src/store/log-format.js";
import { recordFromLog } from "../../src/store/record-from-log.js";
import { LogTail } from "../../src/store/log-tail.js";
import { sessionLogPath } from "../../src/store/state-dir.js";
import { permissions, useTempRoot, withPermissiveUmask } from "./helpers.js";

interface TestEvent {
  type: string;
  n: number;
  text?: string;
}

describe("session log", () => {
  const tempRoot = useTempRoot();

  function logFile(): string {
    const dir = tempRoot();
    mkdirSync(dir, { recursive: true });
    return join(dir, "s.jsonl");
  }

  it("reads back 10,000 appended events equal and in order", () => {
    const root = tempRoot();
    const events: TestEvent[] = Array.from({ length: 10_000 }, (_, n) => ({
      type: n % 2 ? "update" : "prompt_sent",
      n,
      text: `chunk ${n} with "quotes", a newline\nand unicode \u2028 ✓`,
    }));
    const log = openSessionLog<TestEvent>("s1", root);
    for (const event of events) log.append(event);
    log.sync();
    log.close();
    const read = readSessionLog<TestEvent>(sessionLogPath("s1", root));
    expect(read.skipped).toBe(0);
    expect(read.tornTail).toBe(false);
    expect(read.events).toEqual(events);
  });

  it("skips a torn last line left by a crash and keeps every line before it", () => {
    const path = logFile();
    const log = SessionLogWriter.open<TestEvent>(path);
    log.append({ type: "a", n: 1 });
    log.append({ type: "b", n: 2 });
    log.close();
    appendFileSync(path, '{"type":"c","n":3,"te');
    const read = readSessionLog<TestEvent>(path);
    expect(read.events).toEqual([
      { type: "a", n: 1 },
      { type: "b", n: 2 },
    ]);
    expect(read).toMatchObject({ skipped: 1, tornTail: true });
  });

  it("keeps a last event that lost only its newline", () => {
    const path = logFile();
    writeFileSync(path, '{"type":"a","n":1}\n{"type":"b","n":2}');
    expect(readSessionLog(path)).toEqual({
      events: [
        { type: "a", n: 1 },
        { type: "b", n: 2 },
      ],
      version: 0,
      skipped: 0,
      tornTail: false,
    });
  });

  it("skips and counts corrupt lines in the middle", () => {
    const path = logFile();
    writeFileSync(
      path,
      ['{"type":"a","n":1}', "garbage{", '{"type":"b","n":2}', '["not","an","event"]', '{"no":"type"}', '{"type":"c","n":3}', ""].join(
        "\n",
      ),
    );
    const read = readSessionLog<TestEvent>(path);
    expect(read.events.map((event) => event.type)).toEqual(["a", "b", "c"]);
    expect(read).toMatchObject({ skipped: 3, tornTail: false });
  });

  it("appending after a crash does not glue the first new event to the torn line", () => {
    const path = logFile();
    writeFileSync(path, '{"type":"a","n":1}\n{"type":"b","n":');
    const log = SessionLogWriter.open<TestEvent>(path);
    log.append({ type: "c", n: 3 });
    log.close();
    const read = readSessionLog<TestEvent>(path);
    expect(read.events).toEqual([
      { type: "a", n: 1 },
      { type: "c", n: 3 },
    ]);
    expect(read).toMatchObject({ skipped: 1, tornTail: false });
  });

  it("reopening a log appends after the events already there", () => {
    const path = logFile();
    const first = SessionLogWriter.open<TestEvent>(path);
    first.append({ type: "a", n: 1 });
    first.close();
    const second = SessionLogWriter.open<TestEvent>(path);
    second.append({ type: "b", n: 2 });
    second.close();
    expect(readFileSync(path, "utf8")).toBe(`${headerLine()}\n{"type":"a","n":1}\n{"type":"b","n":2}\n`);
  });

  it("creates the log 0600 even under umask 000", async () => {
    const root = tempRoot();
    await withPermissiveUmask(() => openSessionLog("s1", root).close());
    expect(permissions(statSync(sessionLogPath("s1", root)).mode)).toBe(0o600);
    expect(permissions(statSync(join(root, "sessions")).mode)).toBe(0o700);
  });

  it("refuses appends after close with a message naming the log", () => {
    const path = logFile();
    const log = SessionLogWriter.open<TestEvent>(path);
    log.close();
    log.close();
    expect(() => log.append({ type: "a", n: 1 })).toThrow(/already closed/);
  });

  it("rejects an event that cannot be serialised without writing part of it", () => {
    const path = logFile();
    const log = SessionLogWriter.open<{ type: string; big: bigint }>(path);
    expect(() => log.append({ type: "bad", big: 1n })).toThrow(/"bad"/);
    log.close();
    expect(readFileSync(path, "utf8")).toBe(`${headerLine()}\n`);
  });

  it("logs an event nested 100k deep with its deep part replaced by a marker, instead of losing it", () => {
    const path = logFile();
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const log = SessionLogWriter.open<TestEvent & { meta?: unknown }>(path);
    log.append({ type: "update", n: 1, text: "kept", meta: deep });
    log.append({ type: "after", n: 2 });
    log.close();
    const read = readSessionLog<TestEvent & { meta?: unknown }>(path);
    expect(read.events.map((e) => [e.type, e.text])).toEqual([
      ["update", "kept"],
      ["after", undefined],
    ]);
    expect(readFileSync(path, "utf8")).toContain('"[nested too deep]"');
  });

  it("explains a missing log", () => {
    expect(() => readSessionLog(join(tempRoot(), "nope.jsonl"))).toThrow(/No session log at/);
  });
});

describe("session log format version", () => {
  const tempRoot = useTempRoot();
  const fixture = join(import.meta.dirname, "../fixtures/session-logs/unversioned.jsonl");

  function futureLog(): string {
    const dir = tempRoot();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "future.jsonl");
    const event = JSON.stringify({ type: "session_started", at: 1, info: { sessionId: "s9", cwd: "/p", agentName: "demo" } });
    writeFileSync(path, `${JSON.stringify({ conch_log: LOG_FORMAT + 1 })}\n${event}\n`);
    return path;
  }

  it("a new log starts with the format header, and reads back as this version with its events only", () => {
    const dir = tempRoot();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "s.jsonl");
    const log = SessionLogWriter.open<TestEvent>(path);
    log.append({ type: "a", n: 1 });
    log.close();
    expect(JSON.parse(readFileSync(path, "utf8").split("\n")[0])).toEqual({ conch_log: LOG_FORMAT });
    expect(readSessionLog(path)).toEqual({ events: [{ type: "a", n: 1 }], version: LOG_FORMAT, skipped: 0, tornTail: false });
  });

  it("reads a log conch 0.1 wrote, with no header, as version 0 with every event", () => {
    const read = readSessionLog<{ type: string }>(fixture);
    expect(read.version).toBe(0);
    expect(read.skipped).toBe(0);
    expect(read.events[0].type).toBe("agent_ready");
    expect(read.events.map((e) => e.type)).toContain("prompt_response");
    expect(recordFromLog(fixture)).toMatchObject({ agent: "demo", title: "refuse", lastStopReason: "refusal", cwd: "/home/user/project" });
  });

  it("appends to an unversioned log without adding a header in the middle", () => {
    const dir = tempRoot();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "old.jsonl");
    writeFileSync(path, readFileSync(fixture));
    const log = SessionLogWriter.open<TestEvent>(path);
    log.append({ type: "later", n: 1 });
    log.close();
    const read = readSessionLog<TestEvent>(path);
    expect(read).toMatchObject({ version: 0, skipped: 0 });
    expect(read.events.at(-1)).toEqual({ type: "later", n: 1 });
  });

  it("refuses a log from a newer conch with a message that says what to do, when read, appended to, or followed", () => {
    const path = futureLog();
    expect(() => readSessionLog(path)).toThrow(NewerLogError);
    expect(() => readSessionLog(path)).toThrow(
      /written by a newer conch \(log format 2\); this conch reads format 1 and older: update conch to open it/,
    );
    expect(() => SessionLogWriter.open(path)).toThrow(NewerLogError);
    const tail = new LogTail(path, { onEvents: () => undefined });
    expect(() => tail.start()).toThrow(NewerLogError);
    // The index rebuild does not list what it cannot read.
    expect(recordFromLog(path)).toBeUndefined();
  });
});
