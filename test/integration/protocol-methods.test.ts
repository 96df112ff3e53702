// Each ACP method and capability conch uses beyond prompting, against the demo agent as a real
// child process: what goes over the wire (read back from --trace) and what the session shows.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { prepareSession, type PreparedSession } from "../../src/cli/session-setup.js";
import type { Orchestrator } from "../../src/orchestrator/orchestrator.js";
import { listSessions } from "../../src/store/session-index.js";
import type { SessionState } from "../../src/session/state.js";
import { tempDir } from "../support/run-conch.js";
import { useDemoEnv } from "../support/demo-env.js";
import { untilState } from "../support/until-state.js";
import { waitUntil } from "../support/wait.js";

useDemoEnv();

interface WireLine {
  dir: "client" | "agent" | "note";
  msg?: { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { code: number } };
}

/** The messages of a trace file, in order. */
function wire(file: string): WireLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as WireLine);
}

/** The methods conch sent, in order. */
function sent(file: string): string[] {
  return wire(file)
    .filter((l) => l.dir === "client" && l.msg?.method)
    .map((l) => l.msg!.method!);
}

const until = untilState;

/** Waits until `check` holds (a trace file gives no events). */
const poll = (check: () => boolean) => waitUntil(check, "the trace shows it");

let open: PreparedSession | undefined;
afterEach(async () => {
  await open?.orchestrator.shutdown();
  await open?.recorder.close();
  open = undefined;
});

/** A demo session opened with a trace, like `conch --agent demo --trace FILE`. */
async function demoSession(opts: { addDirs?: string[] } = {}): Promise<{ orch: Orchestrator; trace: string; cwd: string }> {
  const cwd = tempDir();
  const trace = path.join(tempDir("conch-trace-"), "trace.jsonl");
  open = await prepareSession({ agent: "demo", continue: false, cwd, trace, addDirs: opts.addDirs }, "approve-all");
  await open.orchestrator.start(open.mode);
  return { orch: open.orchestrator, trace, cwd };
}

const notices = (s: SessionState) => s.items.flatMap((i) => (i.kind === "notice" ? [i.text] : []));

describe("initialize", () => {
  it("advertises terminal logins, boolean config options, notices and identified plans, and the demo then offers its terminal login", async () => {
    const { trace } = await demoSession();
    const [init, answer] = wire(trace).filter((l) => l.msg?.id === 0);
    expect(init.msg!.params!.clientCapabilities).toMatchObject({
      auth: { terminal: true },
      session: { configOptions: { boolean: {} }, notices: {} },
      plan: {},
    });
    const methods = (answer.msg!.result!.authMethods as { id: string }[]).map((m) => m.id);
    expect(methods).toEqual(["demo-login", "demo-terminal-login"]);
  });
});

describe("/clear: session/close, then session/new", () => {
  it("closes the session at the agent, opens a new one in the same directory, and records it in its own log", async () => {
    const { orch, trace, cwd } = await demoSession();
    orch.send("hello");
    await until(orch, (s) => s.phase === "idle" && s.turns.length === 1);
    const first = orch.state.info!.sessionId;
    await orch.newConversation();
    const second = orch.state.info!.sessionId;
    expect(second).not.toBe(first);
    expect(orch.state.info!.cwd).toBe(cwd);
    expect(orch.state.phase).toBe("idle");
    expect(sent(trace).slice(-2)).toEqual(["session/close", "session/new"]);
    expect(wire(trace).find((l) => l.msg?.method === "session/close")!.msg!.params).toEqual({ sessionId: first });
    expect(notices(orch.state).at(-1)).toBe(`new session ${second} (the agent closed ${first})`);

    orch.send("refuse");
    await until(orch, (s) => s.phase === "idle" && s.turns.length === 2);
    const prompts = wire(trace).filter((l) => l.msg?.method === "session/prompt");
    expect(prompts.map((l) => l.msg!.params!.sessionId)).toEqual([first, second]);
    await open!.orchestrator.shutdown();
    await open!.recorder.close();
    const records = await listSessions();
    expect(records.find((r) => r.id === first)?.title).toBe("hello");
    expect(records.find((r) => r.id === second)?.title).toBe("refuse");
  });
});

describe("/fork: session/fork", () => {
  it("goes on in a new session that has the old one's history, and says so", async () => {
    const { orch, trace } = await demoSession();
    orch.send("hello");
    await until(orch, (s) => s.phase === "idle" && s.turns.length === 1);
    const first = orch.state.info!.sessionId;
    await orch.fork();
    const forked = orch.state.info!.sessionId;
    expect(forked).not.toBe(first);
    expect(orch.state.info!.origin).toBe("fork");
    expect(wire(trace).find((l) => l.msg?.method === "session/fork")!.msg!.params).toMatchObject({ sessionId: first });
    expect(notices(orch.state).at(-1)).toContain(`forked: this is session ${forked}, a copy of ${first}`);
    // The agent's copy has the history: a load of the fork replays the first prompt.
    const copy = JSON.parse(readFileSync(path.join(process.env.CONCH_DEMO_STATE!, `${forked}.json`), "utf8"));
    expect(copy.history[0]).toMatchObject({ sessionUpdate: "user_message_chunk", content: { text: "hello" } });
  });
});

describe("/logout: logout, then a login again", () => {
  it("logs out, waits for a login, and after it goes on in the same session (resumed)", async () => {
    const { orch, trace } = await demoSession();
    const sid = orch.state.info!.sessionId;
    await orch.logout();
    expect(orch.state.phase).toBe("auth");
    expect(orch.state.auth?.message).toContain("logged out");
    expect(sent(trace).at(-1)).toBe("logout");
    await orch.authenticate("demo-login");
    expect(orch.state.phase).toBe("idle");
    expect(orch.state.info!.sessionId).toBe(sid);
    expect(sent(trace).slice(-2)).toEqual(["authenticate", "session/resume"]);
  });
});

describe("additionalDirectories: --add-dir", () => {
  it("passes the directories in session/new, and fs/* may write there", async () => {
    const extra = tempDir("conch-extra-");
    const { orch, trace } = await demoSession({ addDirs: [extra] });
    expect(wire(trace).find((l) => l.msg?.method === "session/new")!.msg!.params).toMatchObject({ additionalDirectories: [extra] });
    orch.send(`/edit ${extra}/notes.md`);
    await until(orch, (s) => s.phase === "idle" && s.turns.length === 1);
    expect(readFileSync(path.join(extra, "notes.md"), "utf8")).toContain("conch demo edit #1");
  });

  it("without --add-dir the same write is refused", async () => {
    const extra = tempDir("conch-extra-");
    const { orch, trace } = await demoSession();
    expect(wire(trace).find((l) => l.msg?.method === "session/new")!.msg!.params).not.toHaveProperty("additionalDirectories");
    orch.send(`/edit ${extra}/notes.md`);
    const s = await until(orch, (st) => st.phase === "idle" && st.turns.length === 1);
    expect(existsSync(path.join(extra, "notes.md"))).toBe(false);
    expect(s.items.some((i) => i.kind === "agent" && i.text.includes("outside the workspace"))).toBe(true);
  });
});

describe("config options", () => {
  it("a boolean option is set with type boolean and shows its new value", async () => {
    const { orch, trace } = await demoSession();
    expect(orch.state.configOptions.find((o) => o.id === "thinking")).toMatchObject({ type: "boolean", currentValue: false });
    await orch.setConfigOption("thinking", true);
    expect(wire(trace).find((l) => l.msg?.method === "session/set_config_option")!.msg!.params).toMatchObject({
      configId: "thinking",
      type: "boolean",
      value: true,
    });
    expect(orch.state.configOptions.find((o) => o.id === "thinking")).toMatchObject({ currentValue: true });
    orch.send("refuse");
    const s = await until(orch, (st) => st.phase === "idle" && st.turns.length === 1);
    expect(s.items.some((i) => i.kind === "thought" && i.text.includes("Thinking is on"))).toBe(true);
  });

  it("a model switch goes through the model config option, not session/set_model; model_config options are there too", async () => {
    const { orch, trace } = await demoSession();
    expect(orch.state.configOptions.find((o) => o.category === "model_config")).toMatchObject({ id: "context" });
    await orch.setModel("demo-smart");
    expect(sent(trace)).not.toContain("session/set_model");
    expect(wire(trace).find((l) => l.msg?.method === "session/set_config_option")!.msg!.params).toMatchObject({
      configId: "model",
      value: "demo-smart",
    });
    expect(orch.state.configOptions.find((o) => o.id === "model")).toMatchObject({ currentValue: "demo-smart" });
  });
});

describe("plan_update / plan_removed", () => {
  it("shows identified plans as the agent updates and removes them", async () => {
    const { orch } = await demoSession();
    orch.send("plans");
    const s = await until(orch, (st) => st.phase === "idle" && st.turns.length === 1);
    const plans = s.items.flatMap((i) => (i.kind === "plan" ? [i] : []));
    expect(plans.map((p) => p.planId)).toEqual(["work", "notes"]);
    expect(plans[0].entries.map((e) => e.status)).toEqual(["completed", "completed", "completed"]);
    expect(plans[1].entries).toEqual([
      { content: "write the notes", priority: "medium", status: "completed" },
      { content: "share them", priority: "medium", status: "pending" },
    ]);
    expect(notices(s)).toContain("the agent removed its plan");
  });
});

describe("$/cancel_request for conch's own requests", () => {
  it("a session/load the user gives up on is cancelled at the agent, and the session says so", async () => {
    const cwd = tempDir();
    const trace = path.join(tempDir("conch-trace-"), "trace.jsonl");
    const first = await prepareSession({ agent: "demo", continue: false, cwd }, "approve-all");
    await first.orchestrator.start(first.mode);
    first.orchestrator.send("hello");
    await until(first.orchestrator, (s) => s.phase === "idle" && s.turns.length === 1);
    const sid = first.orchestrator.state.info!.sessionId;
    await first.orchestrator.shutdown();
    await first.recorder.close();

    process.env.CONCH_DEMO_LOAD_MS = "60000";
    try {
      open = await prepareSession({ agent: "demo", continue: false, cwd, resume: sid, trace }, "approve-all");
      const orch = open.orchestrator;
      const starting = orch.start(open.mode).catch((err: Error) => err);
      await until(orch, (s) => s.phase === "replaying");
      // The load is on the wire: the user gives up (Esc).
      await poll(() => sent(trace).includes("session/load"));
      orch.cancel();
      const err = await starting;
      expect(String(err)).toContain("gave up opening the session");
      expect(orch.state.phase).toBe("failed");
      const loadId = wire(trace).find((l) => l.msg?.method === "session/load")!.msg!.id;
      await poll(() => wire(trace).some((l) => l.dir === "agent" && l.msg?.id === loadId));
      expect(wire(trace).find((l) => l.msg?.method === "$/cancel_request")!.msg!.params).toEqual({ requestId: loadId });
      expect(wire(trace).find((l) => l.dir === "agent" && l.msg?.id === loadId)!.msg!.error!.code).toBe(-32800);
    } finally {
      delete process.env.CONCH_DEMO_LOAD_MS;
    }
  });
});
