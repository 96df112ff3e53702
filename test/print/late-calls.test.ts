import type { RequestPermissionRequest, SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { Orchestrator } from "../../src/orchestrator/orchestrator.js";
import type { PermissionPolicy } from "../../src/orchestrator/permission-policy.js";
import type { OutputFormat } from "../../src/print/output-format.js";
import { runPrint } from "../../src/print/run-print.js";
import type { SessionEvent } from "../../src/session/events.js";
import { FakeAgent, flush } from "../orchestrator/fake-agent.js";
import { fakePrintRun, retiringAfter } from "./print-harness.js";

// A `-p` run lets its finished calls go from the session's state. Agents name a call again long
// after it finished: a resumed session's replay and the turns that follow it, a permission asked
// for it, an update in a turn the agent started itself. What the run prints and its exit code must
// be those of a run that keeps every call.

/** A call announced and finished. */
const call = (id: string, kind = "read", title = `read ${id}`): SessionUpdate[] => [
  { sessionUpdate: "tool_call", toolCallId: id, title, kind: kind as never, status: "in_progress", rawInput: { path: `${id}.txt` } },
  {
    sessionUpdate: "tool_call_update",
    toolCallId: id,
    status: "completed",
    content: [{ type: "content", content: { type: "text", text: `the text of ${id}` } }],
  },
];
const calls = (prefix: string, n: number): SessionUpdate[] => Array.from({ length: n }, (_, i) => call(`${prefix}${i}`)).flat();
const text = (t: string): SessionUpdate => ({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } });

/** The session an earlier run left: a prompt, text, calls (the agent replays it on `session/load`). */
const HISTORY: SessionUpdate[] = [
  { sessionUpdate: "user_message_chunk", content: { type: "text", text: "read the files" } },
  text("Reading them. "),
  ...calls("h", 24),
  text("Read them all."),
];

const OPTIONS: RequestPermissionRequest["options"] = [
  { optionId: "yes", name: "Allow", kind: "allow_once" },
  { optionId: "no", name: "Reject", kind: "reject_once" },
];

/** What the agent does: updates (in reads of 7), a permission request, its answer to the prompt. */
type Step = SessionUpdate | { ask: RequestPermissionRequest["toolCall"] } | { respond: true };

interface Script {
  /** The session is resumed: the agent replays `HISTORY` on `session/load`; with `logged`, conch's own log of it is read too. */
  resume?: { logged: boolean };
  policy?: PermissionPolicy;
  steps: Step[];
}

/** The events conch logged of the run that made `HISTORY`: what `--resume` reads back. */
async function loggedHistory(): Promise<SessionEvent[]> {
  const logged: SessionEvent[] = [];
  const agent = new FakeAgent();
  const orch = new Orchestrator({
    agent: { name: "fake", command: { command: "fake", args: [] }, via: "command" },
    cwd: "/tmp",
    policy: "deny",
    timing: { quietMs: 50, stallMs: 10_000 },
    sink: { append: (ev) => logged.push(structuredClone(ev)), sync: () => undefined },
    connect: async (hooks) => {
      agent.hooks = hooks;
      return agent;
    },
  });
  await orch.start();
  orch.send("read the files");
  await flush();
  for (const u of HISTORY.slice(1)) agent.update(u);
  agent.respond(0);
  await orch.until((s) => s.phase === "idle");
  await orch.shutdown();
  return logged;
}

/**
 * A print run of `script` in `format`; `quiet`: how many events a finished call waits before it
 * leaves the state (none: every call stays, the reference).
 */
async function printed(format: OutputFormat, quiet: number | undefined, script: Script) {
  const agent = new FakeAgent();
  const burst = async (updates: SessionUpdate[]) => {
    agent.hooks.onBurst?.("start");
    for (const u of updates) agent.update(u);
    agent.hooks.onBurst?.("end");
    await flush();
  };
  if (script.resume)
    (agent.conn as unknown as { loadSession: () => Promise<object> }).loadSession = async () => {
      for (let at = 0; at < HISTORY.length; at += 7) await burst(HISTORY.slice(at, at + 7));
      return {};
    };
  const history = script.resume?.logged ? await loggedHistory() : undefined;
  const orch = new Orchestrator({
    agent: { name: "fake", command: { command: "fake", args: [] }, via: "command" },
    cwd: "/tmp",
    policy: script.policy ?? "deny",
    // Long enough that the steps after the prompt's answer come before the run is over.
    timing: { quietMs: 300, stallMs: 10_000 },
    newestStateOnly: true,
    ...(history ? { history } : {}),
    connect: async (hooks) => {
      agent.hooks = hooks;
      return agent;
    },
  });
  let retired = 0;
  const retiring = retiringAfter(orch, quiet, (calls) => (retired += calls.filter((p) => !p.kept).length));
  const { io, sinks, run } = fakePrintRun(retiring);
  run.open = () => orch.start(script.resume ? { kind: "load", sessionId: "s1" } : { kind: "new" });
  const exit = runPrint({ prompt: "go", outputFormat: format, policy: script.policy ?? "deny" }, run, sinks);
  while (agent.prompts.length === 0) await flush();
  let updates: SessionUpdate[] = [];
  const answers: Promise<unknown>[] = [];
  for (const step of [...script.steps, null]) {
    if (step === null || "ask" in step || "respond" in step || updates.length === 7) {
      if (updates.length) await burst(updates);
      updates = [];
    }
    if (step === null) break;
    if ("ask" in step)
      answers.push(
        agent.hooks.onPermission(
          { sessionId: "s1", toolCall: step.ask, options: OPTIONS },
          `agent:${answers.length}`,
          new AbortController().signal,
        ),
      );
    else if ("respond" in step) agent.respond(0);
    else updates.push(step);
    await flush();
  }
  const code = await exit;
  await Promise.all(answers);
  return {
    stdout: io.stdout.replace(/"durationMs":\s*\d+/g, '"durationMs":0'),
    stderr: io.stderr,
    code,
    retired,
  };
}

/** Runs `script` with and without calls leaving the state, in each format: the same bytes and exit code. */
function samePrinted(name: string, script: Script, check?: (format: OutputFormat, out: Awaited<ReturnType<typeof printed>>) => void) {
  for (const format of ["json", "stream-json", "text"] as const) {
    it(`${format}: ${name}`, async () => {
      const kept = await printed(format, undefined, script);
      const let_go = await printed(format, 4, script);
      expect(let_go.retired).toBeGreaterThan(20);
      expect({ ...let_go, retired: 0 }).toEqual({ ...kept, retired: 0 });
      check?.(format, let_go);
    });
  }
}

/** The ids the json result lists. */
const listed = (stdout: string): string[] => (JSON.parse(stdout) as { toolCalls: { id: string }[] }).toolCalls.map((c) => c.id);

describe("a -p run whose finished calls leave its state, when the agent names one again", () => {
  describe("a resumed session's history", () => {
    const steps: Step[] = [
      text("Again. "),
      ...calls("c", 20),
      // The history's calls, named again: a new title and content, a failure, a bare `_meta` update.
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "h1",
        title: "read h1 again",
        content: [{ type: "content", content: { type: "text", text: "new" } }],
      },
      { sessionUpdate: "tool_call_update", toolCallId: "h3", status: "failed" },
      { sessionUpdate: "tool_call_update", toolCallId: "h5", _meta: { seen: true } },
      ...calls("d", 10),
      { respond: true },
    ];
    samePrinted(
      "a late update to a replayed call leaves it in the history, not listed as a new call of the run",
      { resume: { logged: false }, steps },
      (format, out) => {
        if (format === "json") expect(listed(out.stdout).filter((id) => id.startsWith("h"))).toEqual([]);
      },
    );
    samePrinted(
      "with conch's own log of the session: the replay's calls are all there when it ends",
      { resume: { logged: true }, steps },
      (format, out) => {
        expect(out.stderr).not.toMatch(/leaves out/);
        if (format === "json") expect(listed(out.stdout)).toHaveLength(30);
      },
    );
  });

  describe("a turn the agent started itself, after the prompt's answer", () => {
    samePrinted("a call of it reopened and closed again stays in it, listed once", {
      steps: [
        ...calls("c", 10),
        { respond: true },
        text("A background task finished. "),
        ...calls("a", 20),
        { sessionUpdate: "tool_call_update", toolCallId: "a2", status: "in_progress", title: "read a2 once more" },
        ...calls("b", 5),
        { sessionUpdate: "tool_call_update", toolCallId: "a2", status: "completed" },
        ...calls("e", 5),
      ],
    });
  });

  describe("a permission asked for a call that left", () => {
    const asked = (id: string): Step => ({
      ask: {
        toolCallId: id,
        title: `cat ${id}.txt > /dev/null`,
        kind: "execute",
        status: "pending",
        rawInput: { command: `cat ${id}.txt` },
        content: [{ type: "content", content: { type: "text", text: `runs cat ${id}.txt` } }],
      },
    });
    samePrinted(
      "refused by the policy: the request shows what it would run, the run says so and exits 5",
      { policy: "deny", steps: [...calls("c", 30), asked("c3"), ...calls("d", 10), { respond: true }] },
      (format, out) => {
        expect(out.code).toBe(5);
        if (format === "stream-json")
          expect(out.stdout).toMatch(/"type":"permission","v":1,"subtype":"asked".*"title":"cat c3.txt > \/dev\/null".*runs cat c3.txt/);
        if (format === "text") expect(out.stderr).toMatch(/permission refused by policy --permissions deny: cat c3.txt > \/dev\/null/);
        if (format === "json") expect(listed(out.stdout).filter((id) => id === "c3")).toHaveLength(1);
      },
    );
    samePrinted("allowed, then run and finished: listed once, in its final state", {
      policy: "approve-all",
      steps: [
        ...calls("c", 30),
        asked("c3"),
        { sessionUpdate: "tool_call_update", toolCallId: "c3", status: "in_progress" },
        ...calls("d", 10),
        { sessionUpdate: "tool_call_update", toolCallId: "c3", status: "completed" },
        { respond: true },
      ],
    });
    samePrinted(
      "a bare request (the id only), after the prompt's answer: nothing waits for it, the call keeps what it showed",
      { policy: "approve-all", steps: [...calls("c", 30), { respond: true }, { ask: { toolCallId: "c4" } }] },
      (format, out) => {
        expect(out.code).toBe(0);
        if (format === "stream-json") expect(out.stdout).toMatch(/"subtype":"asked".*"toolCallId":"c4","title":"read c4".*the text of c4/);
        if (format !== "text") expect(out.stdout).not.toMatch(/stalled/);
      },
    );
  });
});
