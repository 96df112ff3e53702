import { describe, expect, it } from "vitest";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { runPrint } from "../../src/print/run-print.js";
import type { OutputFormat } from "../../src/print/output-format.js";
import { flush, startWithFake } from "../orchestrator/fake-agent.js";
import { fakePrintRun } from "./print-harness.js";

// What print mode writes must not depend on where the pipe's reads split the agent's output: the
// same updates, read in one go, one by one, or split at any point, give the same bytes. A read of
// several updates is folded as one batch, and a line written for one of them used to read the
// session as the whole batch left it (a call's first line said "completed", a plan line showed a
// later plan, a usage line came early; text mode skipped a call's "in_progress").

const entry = (content: string, status: "pending" | "in_progress" | "completed") => ({ content, status, priority: "medium" as const });

/** One turn of an agent: thoughts, text, a plan that changes, calls that start and end, usage. */
const UPDATES: SessionUpdate[] = [
  { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Reading first. " } },
  { sessionUpdate: "plan", entries: [entry("read a.txt", "in_progress"), entry("fix it", "pending")] },
  { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Let me " } },
  { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "look." } },
  { sessionUpdate: "tool_call", toolCallId: "c1", title: "Read a.txt", kind: "read", status: "in_progress" },
  { sessionUpdate: "tool_call_update", toolCallId: "c1", content: [{ type: "content", content: { type: "text", text: "hello" } }] },
  { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed" },
  { sessionUpdate: "usage_update", used: 1200, size: 200_000 },
  { sessionUpdate: "plan", entries: [entry("read a.txt", "completed"), entry("fix it", "in_progress")] },
  { sessionUpdate: "tool_call", toolCallId: "c2", title: "Edit a.txt", kind: "edit", status: "pending" },
  { sessionUpdate: "tool_call_update", toolCallId: "c2", status: "in_progress", title: "Edit a.txt (line 1)" },
  { sessionUpdate: "tool_call_update", toolCallId: "c2", status: "failed" },
  { sessionUpdate: "agent_message_chunk", content: { type: "text", text: " It could not be fixed." } },
  { sessionUpdate: "usage_update", used: 1500, size: 200_000 },
];

/** Runs one prompt in print mode; the agent sends UPDATES in reads of the given sizes. */
async function printed(format: OutputFormat, reads: number[]): Promise<{ stdout: string; stderr: string }> {
  const { orch, agent } = await startWithFake({ newestStateOnly: true });
  const { io, sinks, run } = fakePrintRun(orch);
  const code = runPrint({ prompt: "go", outputFormat: format, policy: "deny" }, run, sinks);
  while (agent.prompts.length === 0) await flush();
  let at = 0;
  for (const size of reads) {
    agent.hooks.onBurst?.("start");
    for (const u of UPDATES.slice(at, at + size)) agent.update(u);
    agent.hooks.onBurst?.("end");
    at += size;
    await flush();
  }
  agent.respond(0);
  expect(await code).toBe(0);
  return { stdout: io.stdout.replace(/"durationMs":\s*\d+/g, '"durationMs":0'), stderr: io.stderr };
}

/** Every way to read UPDATES in one or two reads, and one update a read. */
const SPLITS: number[][] = [
  ...UPDATES.map((_, k) => (k === 0 ? [UPDATES.length] : [k, UPDATES.length - k])),
  UPDATES.map(() => 1),
  [3, 4, 1, 6],
];

describe("print mode's output does not depend on where the agent's output is split into reads", () => {
  for (const format of ["stream-json", "text", "json"] as const) {
    it(`${format}: the same bytes for ${SPLITS.length} ways to read the same updates`, async () => {
      const oneByOne = await printed(
        format,
        UPDATES.map(() => 1),
      );
      for (const reads of SPLITS) expect(await printed(format, reads), `reads of ${reads.join(", ")}`).toEqual(oneByOne);
    });
  }

  it("stream-json: each line says what its update made of the session, read in one go", async () => {
    const lines = (await printed("stream-json", [UPDATES.length])).stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const calls = lines.filter((l) => l.type === "tool_call").map((l) => [l.id, l.subtype, l.status, l.title]);
    expect(calls).toEqual([
      ["c1", "start", "in_progress", "Read a.txt"],
      ["c1", "update", "in_progress", "Read a.txt"],
      ["c1", "update", "completed", "Read a.txt"],
      ["c2", "start", "pending", "Edit a.txt"],
      ["c2", "update", "in_progress", "Edit a.txt (line 1)"],
      ["c2", "update", "failed", "Edit a.txt (line 1)"],
    ]);
    const plans = lines.filter((l) => l.type === "plan").map((l) => (l.entries as { status: string }[]).map((e) => e.status));
    expect(plans).toEqual([
      ["in_progress", "pending"],
      ["completed", "in_progress"],
    ]);
    // Each usage line comes where its update was, not with the first update of the read.
    const order = lines.map((l) =>
      l.type === "usage" ? `usage ${String(l.used)}` : `${String(l.type)} ${String(l.subtype ?? "")}`.trim(),
    );
    expect(order).toEqual([
      "prompt",
      "thought",
      "plan",
      "text",
      "text",
      "tool_call start",
      "tool_call update",
      "tool_call update",
      "usage 1200",
      "plan",
      "tool_call start",
      "tool_call update",
      "tool_call update",
      "text",
      "usage 1500",
      "result",
    ]);
  });

  it("text: a call read in one go with its end still shows it running, then its end", async () => {
    const { stderr } = await printed("text", [UPDATES.length]);
    expect(stderr).toBe(
      [
        "[tool] Read a.txt (read): in_progress",
        "[tool] Read a.txt (read): completed",
        "[tool] Edit a.txt (edit): pending",
        "[tool] Edit a.txt (line 1) (edit): in_progress",
        "[tool] Edit a.txt (line 1) (edit): failed",
        "",
      ].join("\n"),
    );
  });
});
