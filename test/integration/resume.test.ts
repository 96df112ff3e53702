import { describe, expect, it } from "vitest";
import { prepareSession } from "../../src/cli/session-setup.js";
import type { OrchestratorOptions } from "../../src/orchestrator/orchestrator-options.js";
import type { RegistryTerminalService } from "../../src/orchestrator/terminals/terminal-service.js";
import { displayStatus } from "../../src/session/state.js";
import { runConch, tempDir } from "../support/run-conch.js";
import { useDemoEnv } from "../support/demo-env.js";
import { untilState } from "../support/until-state.js";
import { waitUntil } from "../support/wait.js";

useDemoEnv();

const until = untilState;

const base = { agent: "demo", continue: false } as const;

describe("resume a demo-agent session in a new conch process", () => {
  it("a background command still running at quit is live again after --resume, and its completion attaches to the original tool call", async () => {
    const cwd = tempDir();
    process.env.CONCH_DEMO_BACKGROUND_MS = "60000";
    const first = await prepareSession({ ...base, cwd }, "approve-all");
    await first.orchestrator.start(first.mode);
    first.orchestrator.send("background");
    const running = await until(
      first.orchestrator,
      (s) => s.phase === "draining" && Object.values(s.terminals).some((t) => t.outputTail.includes("working")),
    );
    const sessionId = running.info!.sessionId;
    const [tool] = Object.values(running.toolCalls);
    await first.orchestrator.shutdown();
    await first.recorder.close();

    process.env.CONCH_DEMO_BACKGROUND_MS = "300";
    const second = await prepareSession({ ...base, cwd, resume: sessionId.slice(0, 12) }, "approve-all");
    expect(second.mode).toEqual({ kind: "reopen", sessionId });
    await second.orchestrator.start(second.mode);
    const live = await until(second.orchestrator, (s) => s.terminals[tool.terminalId!]?.outputTail.includes("still running") ?? false);
    expect(live.terminals[tool.terminalId!].exited).toBe(false);
    expect(["draining", "idle"]).toContain(live.phase);
    // The screen is parsed on its own thread: wait for its frame rather than read it at once.
    const terminal = (second.orchestrator.terminals as RegistryTerminalService).registry.get(tool.terminalId!)!;
    await waitUntil(async () => (await terminal.screen.plainText()).includes("working"), "the pane shows the command's output");
    expect(await terminal.screen.plainText()).toContain("working");
    const done = await until(second.orchestrator, (s) => s.phase === "idle" && displayStatus(s.toolCalls[tool.toolCallId]) === "completed");
    expect(done.items.filter((i) => i.kind === "tool")).toHaveLength(1);
    expect(done.items.some((i) => i.kind === "agent" && i.text.includes("The background job finished"))).toBe(true);
    await second.orchestrator.shutdown();
    await second.recorder.close();
  });
});

describe("a resumed log is read when the session opens, after the UI's first frame", () => {
  it("nothing of the log is read before `historyAfter`; a log conch cannot read still refuses at once", async () => {
    const cwd = tempDir();
    const first = await prepareSession({ ...base, cwd }, "approve-all");
    await first.orchestrator.start(first.mode);
    first.orchestrator.send("plan");
    const done = await until(first.orchestrator, (s) => s.phase === "idle" && s.turns.some((t) => t.stopReason === "end_turn"));
    const sessionId = done.info!.sessionId;
    await first.orchestrator.shutdown();
    await first.recorder.close();

    let shown!: () => void;
    const appShown = new Promise<void>((resolve) => (shown = resolve));
    const second = await prepareSession({ ...base, cwd, resume: sessionId }, "approve-all", undefined, undefined, appShown);
    // Written after prepareSession: it is in the transcript only if the log is read later.
    const { appendFileSync } = await import("node:fs");
    const { sessionLogPath } = await import("../../src/store/state-dir.js");
    appendFileSync(
      sessionLogPath(sessionId),
      `${JSON.stringify({ type: "notice", at: Date.now(), level: "info", text: "appended late" })}\n`,
    );
    let opened = false;
    const opening = second.orchestrator.start(second.mode).then(() => (opened = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(opened).toBe(false);
    shown();
    await opening;
    // The loader prepareSession gave the orchestrator, read again now: the late event is in the file it reads.
    const { loadHistory } = (second.orchestrator as unknown as { opts: OrchestratorOptions }).opts;
    const log = await loadHistory!(() => false);
    expect(log.events.some((ev) => ev.type === "notice" && ev.text === "appended late")).toBe(true);
    expect(second.orchestrator.state.items.some((i) => i.kind === "user" && i.text === "plan")).toBe(true);
    await second.orchestrator.shutdown();
    await second.recorder.close();

    const { writeFileSync } = await import("node:fs");
    writeFileSync(sessionLogPath(sessionId), `${JSON.stringify({ conch_log: 99 })}\n`);
    await expect(prepareSession({ ...base, cwd, resume: sessionId }, "approve-all", undefined, undefined, appShown)).rejects.toThrow(
      /newer conch/,
    );
  });
});

describe("conch sessions / --resume / --continue from the command line", () => {
  it("lists the session, resumes it by prefix and continues it; an unknown id exits 4 with the closest matches", async () => {
    const stateDir = tempDir("conch-state-");
    const cwd = tempDir();
    const env = { CONCH_DEMO_STATE: tempDir("conch-demo-") };
    const first = await runConch(["-p", "plan", "--agent", "demo", "--output-format", "json"], { stateDir, cwd, env });
    const id = JSON.parse(first.stdout).sessionId as string;
    const list = await runConch(["sessions", "--json"], { stateDir, cwd });
    const records = JSON.parse(list.stdout);
    expect(records[0]).toMatchObject({ id, agent: "demo", title: "plan" });
    expect((await runConch(["sessions"], { stateDir, cwd })).stdout).toContain(id);

    const resumed = await runConch(["-p", "markdown", "--resume", id.slice(0, 10), "--output-format", "json"], { stateDir, cwd, env });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout).sessionId).toBe(id);
    const cont = await runConch(["-p", "thoughts", "--continue", "--output-format", "json"], { stateDir, cwd, env });
    expect(JSON.parse(cont.stdout).sessionId).toBe(id);

    const unknown = await runConch(["-p", "x", "--resume", `${id.slice(0, 8)}zzz`], { stateDir, cwd });
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain("no session");
    expect(unknown.stderr).toContain(id);

    const del = await runConch(["sessions", "delete", id], { stateDir, cwd });
    expect(del.code).toBe(0);
    expect(JSON.parse((await runConch(["sessions", "--json"], { stateDir, cwd })).stdout)).toEqual([]);
  });
});

describe("logging in to an agent that asks for it", () => {
  it("print mode fails fast with exit 1 and the exact login command", async () => {
    const r = await runConch(["-p", "hello", "--agent", "demo"], {
      env: { CONCH_DEMO_AUTH: "1", CONCH_DEMO_STATE: tempDir("conch-demo-") },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("needs you to log in");
    expect(r.stderr).toMatch(/demo(\/main)?\.js --login/);
  });

  it("the session waits in `auth`; logging in with the agent's own method opens it and the prompt goes through", async () => {
    process.env.CONCH_DEMO_AUTH = "1";
    process.env.CONCH_DEMO_STATE = tempDir("conch-demo-");
    try {
      const s = await prepareSession({ ...base, cwd: tempDir() }, "ask");
      await s.orchestrator.start(s.mode);
      expect(s.orchestrator.state.phase).toBe("auth");
      expect(s.orchestrator.state.auth?.methods.map((m) => m.id)).toEqual(["demo-login", "demo-terminal-login"]);
      await s.orchestrator.authenticate("demo-login");
      expect(s.orchestrator.state.phase).toBe("idle");
      s.orchestrator.send("hello");
      const done = await until(s.orchestrator, (st) => st.phase === "idle" && st.turns.some((t) => t.stopReason === "end_turn"));
      expect(done.items.some((i) => i.kind === "agent")).toBe(true);
      await s.orchestrator.shutdown();
      await s.recorder.close();
    } finally {
      delete process.env.CONCH_DEMO_AUTH;
    }
  });
});
