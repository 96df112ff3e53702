import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { OutputFormat } from "../../src/print/output-format.js";
import { RetiredCalls } from "../../src/print/retired-calls.js";
import { IdFilter } from "../../src/session/id-filter.js";
import type { PassedCall } from "../../src/session/retire-calls.js";
import { runPrint } from "../../src/print/run-print.js";
import type { ToolCallView } from "../../src/session/state.js";
import { flush, startWithFake } from "../orchestrator/fake-agent.js";
import { fakePrintRun, retiringAfter } from "./print-harness.js";

// A `-p` run lets its finished calls go from the session's state (their result lines are spooled),
// so a flood of calls does not grow conch's memory. What it prints must not change for that.

const call = (id: string, kind: string, title = `read ${id}`): SessionUpdate[] => [
  { sessionUpdate: "tool_call", toolCallId: id, title, kind: kind as never, status: "in_progress" },
  { sessionUpdate: "tool_call_update", toolCallId: id, status: id.endsWith("9") ? "failed" : "completed" },
];

/**
 * Calls of every sort a print run keeps or lets go, with text between them: one left open for a
 * while (passed and kept), a command (kept), an index-like id (listed first), a late title.
 */
const UPDATES: SessionUpdate[] = [
  { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Reading. " } },
  ...Array.from({ length: 30 }, (_, i) => call(`c${i}`, "read", i % 7 === 3 ? 'é ✓ 😀 "q"\nline' : `read ${i}`)).flat(),
  { sessionUpdate: "tool_call_update", toolCallId: "c29", title: "read c29 again" },
  { sessionUpdate: "tool_call", toolCallId: "slow", title: "search", kind: "search", status: "in_progress" },
  ...call("42", "read"),
  ...call("x1", "execute", "npm test"),
  ...Array.from({ length: 20 }, (_, i) => call(`d${i}`, "edit")).flat(),
  { sessionUpdate: "tool_call_update", toolCallId: "slow", status: "completed" },
  ...Array.from({ length: 20 }, (_, i) => call(`e${i}`, "read")).flat(),
  { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Done." } },
  { sessionUpdate: "tool_call", toolCallId: "last", title: "last", kind: "read", status: "in_progress" },
  { sessionUpdate: "tool_call_update", toolCallId: "last", status: "completed" },
];

/**
 * Late updates to calls long finished (by then they left the state of a run that lets calls go):
 * content only, a new title, a new kind and status, an empty title, two for one call; one reopened
 * and closed again later; one back after it had left again.
 */
const LATE: SessionUpdate[] = [
  ...UPDATES.slice(0, -3),
  { sessionUpdate: "tool_call_update", toolCallId: "c3", content: [{ type: "content", content: { type: "text", text: "late" } }] },
  { sessionUpdate: "tool_call_update", toolCallId: "c5", title: "read c5, renamed late" },
  { sessionUpdate: "tool_call_update", toolCallId: "d2", kind: "read", status: "failed" },
  { sessionUpdate: "tool_call_update", toolCallId: "c5", rawOutput: { late: true } },
  { sessionUpdate: "tool_call_update", toolCallId: "c0", title: "", status: "completed" },
  { sessionUpdate: "tool_call_update", toolCallId: "d5", status: "in_progress" },
  ...Array.from({ length: 10 }, (_, i) => call(`f${i}`, "read")).flat(),
  // Back again, after it left again.
  { sessionUpdate: "tool_call_update", toolCallId: "c3", title: "c3 once more" },
  { sessionUpdate: "tool_call_update", toolCallId: "d5", status: "completed" },
  ...Array.from({ length: 10 }, (_, i) => call(`g${i}`, "read")).flat(),
  ...UPDATES.slice(-3),
];

/** A print run of `updates`, in reads of 7; `quiet`: how many events a finished call waits before it leaves (none: calls stay). */
async function printed(
  format: OutputFormat,
  quiet?: number,
  updates = UPDATES,
): Promise<{ stdout: string; stderr: string; held: number; retired: number }> {
  const { orch, agent } = await startWithFake({ newestStateOnly: true });
  let retired = 0;
  const retiring = retiringAfter(orch, quiet, (calls) => (retired += calls.length));
  const { io, sinks, run } = fakePrintRun(retiring);
  const code = runPrint({ prompt: "go", outputFormat: format, policy: "deny" }, run, sinks);
  while (agent.prompts.length === 0) await flush();
  for (let at = 0; at < updates.length; at += 7) {
    agent.hooks.onBurst?.("start");
    for (const u of updates.slice(at, at + 7)) agent.update(u);
    agent.hooks.onBurst?.("end");
    await flush();
  }
  agent.respond(0);
  expect(await code).toBe(0);
  const stdout = io.stdout.replace(/"durationMs":\s*\d+/g, '"durationMs":0');
  return { stdout, stderr: io.stderr, held: Object.keys(orch.state.toolCalls).length, retired };
}

describe("a -p run whose finished calls leave its state", () => {
  for (const format of ["json", "stream-json", "text"] as const) {
    it(`${format}: prints the same bytes as a run that keeps them all`, async () => {
      const kept = await printed(format);
      const let_go = await printed(format, 4);
      expect(let_go.retired).toBeGreaterThan(60);
      expect(let_go.held).toBeLessThan(kept.held - 60);
      expect(let_go).toEqual({ ...kept, held: let_go.held, retired: let_go.retired });
    });
  }

  for (const format of ["json", "stream-json", "text"] as const) {
    it(`${format}: a late update to a call that left lists it once, where it was, in its final state`, async () => {
      const kept = await printed(format, undefined, LATE);
      const let_go = await printed(format, 4, LATE);
      expect(let_go.retired).toBeGreaterThan(60);
      expect(let_go).toEqual({ ...kept, held: let_go.held, retired: let_go.retired });
    });
  }

  it("json: lists every call once, an index-like id first, the rest as announced", async () => {
    const { stdout } = await printed("json", 4);
    const ids = (JSON.parse(stdout) as { toolCalls: { id: string }[] }).toolCalls.map((c) => c.id);
    expect(ids[0]).toBe("42");
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(30 + 1 + 1 + 1 + 20 + 20 + 1);
    expect(ids.slice(1, 4)).toEqual(["c0", "c1", "c2"]);
    expect(ids.slice(31, 34)).toEqual(["slow", "x1", "d0"]);
    expect(ids.at(-1)).toBe("last");
  });
});

describe("RetiredCalls", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const view = (i: number, title: string): PassedCall => ({
    call: {
      toolCallId: `t${i}`,
      turnId: "run",
      title,
      kind: "read",
      status: "completed",
      content: [],
      locations: [],
      meta: {},
      history: false,
      lastSeq: 0,
      startedAt: 10,
      endedAt: 10 + i,
    } as ToolCallView,
    kept: false,
  });

  it("reads back, in order, the calls passed, past a megabyte and through multi-byte titles, leaving no file", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "conch-retired-test-"));
    dirs.push(dir);
    const spool = new RetiredCalls(dir);
    const titles = ["é ✓ 😀", "line\nbreak", "x".repeat(300), '"q"', "\u2028", ',"turnId":"x"'];
    const expected: unknown[] = [];
    for (let b = 0; b < 40; b++) {
      const batch = Array.from({ length: 500 }, (_, k) => view(b * 500 + k, titles[(b + k) % titles.length]));
      spool.add(batch);
      for (const { call: t } of batch)
        expected.push({ id: t.toolCallId, title: t.title, kind: "read", status: "completed", durationMs: t.endedAt! - 10 });
    }
    expect(readdirSync(dir)).toEqual([]);
    expect(spool.count).toBe(expected.length);
    expect([...spool.resultLines({})].map((l) => JSON.parse(l) as unknown)).toEqual(expected);
    spool.close();
  });

  it("keeps the calls in memory when there is no file to spool to; a kept call is read from the state at the end", () => {
    const spool = new RetiredCalls(path.join(tmpdir(), "conch-no-such-dir", "deeper"));
    const kept = view(2, "b");
    spool.add([view(1, "a"), { ...kept, kept: true }]);
    spool.add([view(3, "c")]);
    const now = { ...kept.call, title: "b, renamed", status: "failed" } as ToolCallView;
    expect(
      [...spool.resultLines({ t2: now })]
        .map((l) => JSON.parse(l) as { id: string; title: string; status: string })
        .map((c) => `${c.id} ${c.title} ${c.status}`),
    ).toEqual(["t1 a completed", "t2 b, renamed failed", "t3 c completed"]);
    expect(spool.kept).toBe(1);
    spool.close();
  });

  it("gives a call back as it left: its turn, content, locations, raw input and output, _meta", () => {
    const spool = new RetiredCalls();
    const full = {
      ...view(7, 'cat "a b"').call,
      turnId: "a3",
      kind: undefined,
      status: "failed",
      content: [{ type: "diff", path: "/w/a", oldText: null, newText: "x\n" }],
      locations: [{ path: "/w/a", line: 2 }],
      rawInput: { path: "/w/a", nested: { turnId: "no" } },
      rawOutput: "done",
      meta: { claudeCode: { toolName: "Write" } },
    } as ToolCallView;
    spool.add([view(1, "a"), { call: full, kept: false }, view(9, "c")]);
    const [back] = spool.recall(["t7"], 500);
    expect(back).toEqual({ ...full, lastAt: 500, lastSeq: 0, localStatus: undefined, detached: undefined, terminalId: undefined });
    // Listed where it was, as it is in the state now.
    expect([...spool.resultLines({ t7: { ...back, title: "renamed" } })].map((l) => (JSON.parse(l) as { title: string }).title)).toEqual([
      "a",
      "renamed",
      "c",
    ]);
    spool.close();
  });
});

describe("retirement", () => {
  it("is refused where the state keeps snapshots (the TUI shows every call)", async () => {
    const { orch } = await startWithFake();
    expect(orch.retireCalls({ owns: () => true, passed: () => undefined, recall: () => [] }, 4)).toBe(false);
  });
});

describe("IdFilter", () => {
  it("never says no to an id it holds, and rarely maybe to one it does not", () => {
    const filter = new IdFilter();
    expect(filter.mayHave("call_0")).toBe(false);
    const ids = Array.from({ length: 200_000 }, (_, i) => `call_${i.toString(36)}`);
    for (const id of ids) filter.add(id);
    expect(ids.every((id) => filter.mayHave(id))).toBe(true);
    let maybe = 0;
    for (let i = 0; i < 200_000; i++) if (filter.mayHave(`toolu_${i}`)) maybe++;
    expect(maybe).toBeLessThan(5);
  });
});
