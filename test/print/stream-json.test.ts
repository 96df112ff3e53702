import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { StreamJsonMapper, STREAM_JSON_VERSION, type StreamJsonLine } from "../../src/print/stream-json.js";
import type { SessionEvent } from "../../src/session/events.js";
import { foldEvents, reduce } from "../../src/session/reduce.js";
import { ROOT, runConch, tempDir } from "../support/run-conch.js";
import { traceToEvents } from "../support/trace-events.js";

/** One row of the README's stream-json table: a line type (and subtypes) and its fields. */
interface DocumentedLine {
  type: string;
  subtypes: string[];
  required: string[];
  optional: string[];
}

/** The README's table of stream-json lines, read the way a person reads it. */
function documentedLines(): DocumentedLine[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### The stream-json lines"));
  const rows = section
    .slice(0, section.indexOf("\n\n", section.indexOf("| --- |")))
    .split("\n")
    .filter((l) => l.startsWith("| `"));
  return rows.map((row) => {
    const [head, fields] = row.split(" | ").map((cell) => cell.replace(/^\| /, ""));
    const [type, ...subtypes] = [...head.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    // Parenthesised text explains a field; the field names are the backticked words outside it.
    let bare = fields;
    for (let before = ""; before !== bare;) [before, bare] = [bare, bare.replace(/\([^()]*\)/g, "")];
    const names = [...bare.matchAll(/`([A-Za-z_]+)`(\?)?/g)];
    return {
      type,
      subtypes,
      required: names.filter((m) => !m[2]).map((m) => m[1]),
      optional: names.filter((m) => m[2]).map((m) => m[1]),
    };
  });
}

function parseLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("stream-json's public schema", () => {
  const documented = documentedLines();

  it("the README documents every line type the code can write", () => {
    const types = new Set(documented.map((d) => d.type));
    for (const t of ["system", "prompt", "text", "thought", "tool_call", "plan", "permission", "usage", "notice", "result"]) {
      expect(types, t).toContain(t);
    }
  });

  it("every line of demo runs carries a type and the version, and exactly the fields the README documents for it", async () => {
    const cwd = tempDir();
    const runs = await Promise.all([
      runConch(["-p", "plan", "--agent", "demo", "--output-format", "stream-json"], { cwd }),
      runConch(["-p", "edit", "--agent", "demo", "--output-format", "stream-json", "--permissions", "approve-all"], { cwd }),
      runConch(["-p", "permission", "--agent", "demo", "--output-format", "stream-json"], { cwd }),
      runConch(["-p", "run", "--agent", "demo", "--output-format", "stream-json"], { cwd }),
      runConch(["-p", "markdown", "--agent", "demo", "--output-format", "stream-json"], { cwd }),
      runConch(["-p", "plan", "--agent", "demo", "--output-format", "stream-json", "--mode", "no-such-mode"], { cwd }),
    ]);
    const json = JSON.parse((await runConch(["-p", "hello", "--agent", "demo", "--output-format", "json"], { cwd })).stdout) as object;
    const seen = new Set<string>();
    for (const run of runs) {
      const lines = parseLines(run.stdout);
      expect(lines.at(-1)?.type).toBe("result");
      for (const line of lines) {
        const { type, v, subtype, ...fields } = line as { type: string; v: number; subtype?: string };
        expect(v, JSON.stringify(line)).toBe(STREAM_JSON_VERSION);
        seen.add(subtype ? `${type}.${subtype}` : type);
        if (type === "result") {
          expect(Object.keys(line).sort()).toEqual([...Object.keys(json), "v"].sort());
          continue;
        }
        const doc = documented.find(
          (d) => d.type === type && (d.subtypes.length === 0 ? subtype === undefined : d.subtypes.includes(subtype!)),
        );
        expect(doc, `undocumented line ${JSON.stringify(line)}`).toBeDefined();
        const keys = Object.keys(fields);
        for (const k of doc!.required) expect(keys, `${type}: ${k}`).toContain(k);
        for (const k of keys) expect([...doc!.required, ...doc!.optional], `${type}: ${k} is not documented`).toContain(k);
      }
    }
    // The runs above reach these; a line type no run writes would go untested.
    expect([...seen].sort()).toEqual(
      expect.arrayContaining([
        "system.init",
        "prompt",
        "text",
        "thought",
        "tool_call.start",
        "tool_call.update",
        "plan",
        "permission.asked",
        "permission.answered",
        "usage",
        "notice",
        "result",
      ]),
    );
  }, 120_000);

  it("a refused permission streams as asked, then answered by the policy with a reject option", async () => {
    const r = await runConch(["-p", "permission", "--agent", "demo", "--output-format", "stream-json"]);
    expect(r.code).toBe(5);
    const perms = parseLines(r.stdout).filter((l) => l.type === "permission");
    expect(perms.map((p) => p.subtype)).toEqual(["asked", "answered"]);
    expect(perms[1]).toMatchObject({ outcome: "selected", source: "policy", toolCallId: perms[0].toolCallId });
    expect(String(perms[1].optionKind)).toMatch(/^reject_/);
  });
});

describe("mapping session events to stream-json lines", () => {
  const at = 1;
  const started: SessionEvent = {
    type: "session_started",
    at,
    info: { sessionId: "s1", cwd: "/p", agentName: "demo", agentInfo: { name: "demo", version: "1.2.3" }, origin: "new" },
  };

  function linesOf(events: SessionEvent[]): StreamJsonLine[] {
    const mapper = new StreamJsonMapper();
    let state = foldEvents([]);
    return events.flatMap((ev) => {
      state = reduce(state, ev);
      return mapper.linesFor(state, ev);
    });
  }

  it("a piece of text or thought is written as JSON.stringify writes its line, whatever it holds", () => {
    const mapper = new StreamJsonMapper();
    const state = foldEvents([]);
    for (const text of ["w1 ", 'quote " back \\ slash', "line\nbreak\ttab", "\u0000\u001b[31m", "é ✓ 😀", "\u2028\u2029", "\ud800 lone"]) {
      for (const kind of ["agent_message_chunk", "agent_thought_chunk"] as const) {
        const ev: SessionEvent = {
          type: "update",
          at,
          notification: { sessionId: "s1", update: { sessionUpdate: kind, content: { type: "text", text } } },
        };
        const line = { type: kind === "agent_message_chunk" ? "text" : "thought", v: STREAM_JSON_VERSION, delta: text };
        expect(mapper.textFor(state, ev)).toBe(`${JSON.stringify(line)}\n`);
      }
    }
  });

  it("drops conch's internal events and replayed history instead of printing them", () => {
    const lines = linesOf([
      started,
      { type: "queue_added", at, id: "q1", text: "later" },
      { type: "settled", at },
      { type: "terminal_started", at, terminalId: "t1", command: "ls", args: [], cwd: "/p" },
      { type: "terminal_output", at, terminalId: "t1", data: "secret bytes" },
      {
        type: "update",
        at,
        history: true,
        notification: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "old" } } },
      },
      {
        type: "update",
        at,
        notification: { sessionId: "s1", update: { sessionUpdate: "available_commands_update", availableCommands: [] } },
      },
    ]);
    expect(lines).toEqual([
      { type: "system", v: 1, subtype: "init", sessionId: "s1", agent: "demo", agentVersion: "1.2.3", cwd: "/p", origin: "new" },
    ]);
  });

  it("a tool call starts with its content and updates with its whole title, kind and status", () => {
    const update = (u: object): SessionEvent => ({ type: "update", at, notification: { sessionId: "s1", update: u as never } });
    const lines = linesOf([
      started,
      { type: "prompt_sent", at, turnId: "t1", prompt: [{ type: "text", text: "go" }] },
      update({ sessionUpdate: "tool_call", toolCallId: "c1", title: "Edit a.md", kind: "edit", status: "pending" }),
      update({
        sessionUpdate: "tool_call_update",
        toolCallId: "c1",
        status: "completed",
        content: [{ type: "diff", path: "/p/a.md", oldText: "a", newText: "b" }],
      }),
    ]);
    expect(lines.slice(1)).toEqual([
      { type: "prompt", v: 1, turnId: "t1", text: "go" },
      { type: "tool_call", v: 1, subtype: "start", id: "c1", title: "Edit a.md", kind: "edit", status: "pending", content: [] },
      {
        type: "tool_call",
        v: 1,
        subtype: "update",
        id: "c1",
        title: "Edit a.md",
        kind: "edit",
        status: "completed",
        content: [{ type: "diff", path: "/p/a.md", oldText: "a", newText: "b" }],
      },
    ]);
  });

  it("a call conch concludes on its own is streamed again: codex 2.x's command left running is background, then ended with the agent", () => {
    const events = traceToEvents("codex-acp-2.6.0/c5-unfinished.jsonl", { process: 1 });
    const last = events.at(-1)!.at;
    const calls = linesOf([
      ...events,
      { type: "agent_exited", at: last + 1, code: null, signal: "SIGTERM", stderrTail: "", expected: true },
    ])
      .filter((l) => l.type === "tool_call")
      .map((l) => (l as { status: string }).status);
    expect(calls[0]).toBe("in_progress");
    expect(calls.at(-1)).toBe("ended_with_agent");
    expect(calls).toContain("background");
  });

  it("a resumed session's plan and context use are streamed when they change, not at the start", () => {
    const update = (u: object): SessionEvent => ({ type: "update", at, notification: { sessionId: "s1", update: u as never } });
    const plan = (status: string) => update({ sessionUpdate: "plan", entries: [{ content: "step", status, priority: "high" }] });
    const before = foldEvents([started, plan("pending"), update({ sessionUpdate: "usage_update", used: 5, size: 100 })]);
    const mapper = new StreamJsonMapper(before);
    const ev: SessionEvent = { type: "notice", at, level: "info", text: "resumed" };
    expect(mapper.linesFor(reduce(before, ev), ev)).toEqual([{ type: "notice", v: 1, level: "info", text: "resumed" }]);
    const next = plan("completed");
    expect(mapper.linesFor(reduce(before, next), next)).toEqual([
      { type: "plan", v: 1, entries: [{ content: "step", status: "completed", priority: "high" }] },
    ]);
  });

  it("a plan is streamed when its entries change, not again for the same list (opencode's todowrite carries it in its input and again in its output)", () => {
    const events = traceToEvents("opencode-1.18.33/g-modes-todos-model.jsonl", { process: 0 });
    const firstTurnEnd = events.findIndex((e) => e.type === "prompt_response");
    const plans = linesOf(events.slice(0, firstTurnEnd + 1)).filter((l) => l.type === "plan");
    expect(plans).toEqual([
      {
        type: "plan",
        v: 1,
        entries: [
          { content: "Read the code", status: "completed", priority: "high" },
          { content: "Write the fix", status: "in_progress", priority: "high" },
          { content: "Run the tests", status: "pending", priority: "medium" },
        ],
      },
    ]);
  });

  it("an empty text or thought chunk is no line (claude 0.23 opens every block with one)", () => {
    const update = (u: object): SessionEvent => ({ type: "update", at, notification: { sessionId: "s1", update: u as never } });
    const lines = linesOf([
      started,
      { type: "prompt_sent", at, turnId: "t1", prompt: [{ type: "text", text: "go" }] },
      update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "" } }),
      update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "" } }),
      update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } }),
    ]);
    expect(lines.slice(2)).toEqual([{ type: "text", v: 1, delta: "hi" }]);
  });

  it("a command's output is in its terminal content once it exited: plain text, bounded, flagged when cut", () => {
    const update = (u: object): SessionEvent => ({ type: "update", at, notification: { sessionId: "s1", update: u as never } });
    const lines = linesOf([
      started,
      { type: "prompt_sent", at, turnId: "t1", prompt: [{ type: "text", text: "go" }] },
      { type: "terminal_started", at, terminalId: "term1", command: "make", args: [], cwd: "/p" },
      update({
        sessionUpdate: "tool_call",
        toolCallId: "c1",
        title: "make",
        kind: "execute",
        status: "in_progress",
        content: [{ type: "terminal", terminalId: "term1" }],
      }),
      { type: "terminal_output", at, terminalId: "term1", data: "\u001b[32mcompiling\u001b[0m\r\n[..  ]\r[....]\r\ndone\r\n" },
      { type: "terminal_exited", at, terminalId: "term1", exitCode: 0, signal: null },
      update({ sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed" }),
    ]);
    const calls = lines.filter((l) => l.type === "tool_call");
    expect(calls.map((l) => [l.type === "tool_call" && l.subtype, l.type === "tool_call" && l.content])).toEqual([
      ["start", [{ type: "terminal", terminalId: "term1" }]],
      // The exit changed what the call shows: a line says so, with the output.
      ["update", [{ type: "terminal", terminalId: "term1", output: "compiling\n[....]\ndone\n", truncated: false }]],
      ["update", undefined],
    ]);
    const flood: SessionEvent[] = [
      started,
      { type: "terminal_started", at, terminalId: "term2", command: "yes", args: [], cwd: "/p" },
      update({
        sessionUpdate: "tool_call",
        toolCallId: "c2",
        title: "yes",
        kind: "execute",
        status: "in_progress",
        content: [{ type: "terminal", terminalId: "term2" }],
      }),
      { type: "terminal_output", at, terminalId: "term2", data: "y\n".repeat(100_000) },
      { type: "terminal_exited", at, terminalId: "term2", exitCode: 0, signal: null },
    ];
    const last = linesOf(flood).at(-1) as Extract<StreamJsonLine, { type: "tool_call" }>;
    const term = last.content?.[0] as { output: string; truncated: boolean };
    expect(term.truncated).toBe(true);
    expect(term.output.length).toBeLessThanOrEqual(64 * 1024);
    expect(term.output.endsWith("y\ny\n")).toBe(true);
  });
});

describe("stream-json and json against the demo agent", () => {
  it("a command's output reaches stream-json: the demo build log, with its first line", async () => {
    const r = await runConch(["-p", "run", "--agent", "demo", "--output-format", "stream-json"]);
    expect(r.code).toBe(0);
    const outputs = parseLines(r.stdout)
      .filter((l) => l.type === "tool_call")
      .flatMap((l) => (l.content as { type: string; output?: string; truncated?: boolean }[] | undefined) ?? [])
      .filter((c) => c.type === "terminal" && c.output !== undefined);
    expect(outputs.length).toBeGreaterThan(0);
    expect(outputs[0].output).toContain("==> conch demo build");
    expect(outputs[0].output).not.toContain("\u001b");
    expect(outputs[0].truncated).toBe(false);
  });

  it("a call refused by the --permissions policy is rejected in the result, as the README says", async () => {
    const r = await runConch(["-p", "permission", "--agent", "demo", "--output-format", "json"]);
    expect(r.code).toBe(5);
    const result = JSON.parse(r.stdout);
    expect(result.toolCalls).toEqual([expect.objectContaining({ status: "rejected" })]);
    expect(result.permissionsDenied).toHaveLength(1);
  });
});
