import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { prepareSession } from "../../src/cli/session-setup.js";
import type { RegistryTerminalService } from "../../src/orchestrator/terminals/terminal-service.js";
import type { SessionEvent } from "../../src/session/events.js";
import { foldEvents } from "../../src/session/reduce.js";
import { readSessionLog } from "../../src/store/session-log.js";
import { sessionLockPath, sessionLogPath } from "../../src/store/state-dir.js";
import { CONCH, runConch, tempDir } from "../support/run-conch.js";
import { waitUntil } from "../support/wait.js";

const HOSTILE = path.resolve(__dirname, "../support/hostile-agent.mjs");

/** A user config naming the hostile agent, which resumes without replay: conch's own log is the transcript. */
function hostileConfig(): string {
  const file = path.join(tempDir("conch-config-"), "config.json");
  writeFileSync(file, JSON.stringify({ agents: { hostile: { command: process.execPath, args: [HOSTILE] } } }));
  return file;
}

/** Resolves once `pred` holds, checking as files change. */
const until = (pred: () => boolean) => waitUntil(pred, "the log shows it");

function logged(stateDir: string, id: string) {
  const { events } = readSessionLog<SessionEvent>(sessionLogPath(id, stateDir));
  const s = foldEvents(events);
  return {
    events,
    users: s.items.filter((i) => i.kind === "user").map((i) => ("text" in i ? i.text : "")),
    agent: s.items.filter((i) => i.kind === "agent").map((i) => ("text" in i ? i.text : "")),
  };
}

const running: { kill: (signal: "SIGKILL") => unknown }[] = [];
afterAll(() => {
  for (const p of running) p.kill("SIGKILL");
});

describe("one session, two conch processes, and a kill -9", () => {
  it("a second conch on an open session is refused (exit 1, naming the first one's pid); after kill -9 and a torn last line the session resumes with everything before the kill", async () => {
    const stateDir = tempDir("conch-state-");
    const cwd = tempDir();
    const env = { CONCH_CONFIG: hostileConfig() };
    const first = await runConch(["-p", "hello", "--agent", "hostile", "--output-format", "json"], { stateDir, cwd, env });
    expect(first.code).toBe(0);
    const id = JSON.parse(first.stdout).sessionId as string;

    // A: resumes the session and is mid-turn (the agent streams, then never answers).
    const a = execa(process.execPath, [CONCH, "-p", "hang", "--resume", id, "--output-format", "json"], {
      cwd,
      input: "",
      reject: false,
      env: { CONCH_STATE_DIR: stateDir, NO_COLOR: "1", ...env },
    });
    running.push(a);
    await until(
      () => existsSync(sessionLogPath(id, stateDir)) && readFileSync(sessionLogPath(id, stateDir), "utf8").includes("working on it"),
    );
    expect(readFileSync(sessionLockPath(id, stateDir), "utf8").split("\n")[0]).toBe(String(a.pid));

    // B: refused before it starts an agent or writes anything.
    const before = readFileSync(sessionLogPath(id, stateDir), "utf8");
    const b = await runConch(["-p", "second writer", "--resume", id], { stateDir, cwd, env });
    expect(b.code).toBe(1);
    expect(b.stderr).toContain(`conch: session ${id} is open in another conch (pid ${a.pid})`);
    expect(readFileSync(sessionLogPath(id, stateDir), "utf8")).toBe(before);

    // A is killed mid-turn, mid-write.
    a.kill("SIGKILL");
    await a;
    appendFileSync(sessionLogPath(id, stateDir), '{"type":"update","at":1,"notification":{"sessionId":"');

    const c = await runConch(["-p", "hello again", "--resume", id, "--output-format", "json"], { stateDir, cwd, env });
    expect(c.code).toBe(0);
    expect(JSON.parse(c.stdout)).toMatchObject({ sessionId: id, stopReason: "end_turn", text: "ok" });
    const log = logged(stateDir, id);
    expect(log.users).toEqual(["hello", "hang", "hello again"]);
    expect(log.agent).toEqual(["ok", "working on it", "ok"]);
    expect(log.users).not.toContain("second writer");
    // The turn ids go on from the log's, so the log folds the same from disk as it did live.
    expect(log.events.filter((e) => e.type === "prompt_sent").map((e) => (e.type === "prompt_sent" ? e.turnId : ""))).toEqual([
      "t1",
      "t2",
      "t3",
    ]);
  });

  it("the demo agent killed mid-answer resumes cleanly too (it replays the session itself)", async () => {
    const stateDir = tempDir("conch-state-");
    const cwd = tempDir();
    const env = { CONCH_DEMO_STATE: tempDir("conch-demo-") };
    const a = execa(process.execPath, [CONCH, "-p", "slow", "--agent", "demo", "--output-format", "json"], {
      cwd,
      input: "",
      reject: false,
      env: { CONCH_STATE_DIR: stateDir, NO_COLOR: "1", CONCH_DEMO_DELAY_MS: "0", ...env },
    });
    running.push(a);
    const sessions = path.join(stateDir, "sessions");
    let id = "";
    await until(() => {
      const log = existsSync(sessions) ? readSessionLogIn(sessions) : undefined;
      if (log && log.text.includes("agent_message_chunk")) id = log.id;
      return id !== "";
    });
    a.kill("SIGKILL");
    await a;
    appendFileSync(sessionLogPath(id, stateDir), '{"type":"upd');
    const c = await runConch(["-p", "hello", "--resume", id, "--output-format", "json"], { stateDir, cwd, env });
    expect(c.code).toBe(0);
    expect(JSON.parse(c.stdout)).toMatchObject({ sessionId: id, stopReason: "end_turn" });
  });
});

/** The one session log in `dir`: its session id (from its session_started, wherever that is) and its text. */
function readSessionLogIn(dir: string): { id: string; text: string } | undefined {
  const file = readdirSync(dir).find((f) => f.endsWith(".jsonl"));
  if (!file) return undefined;
  const text = readFileSync(path.join(dir, file), "utf8");
  const started = text.split("\n").find((line) => line.startsWith('{"type":"session_started"'));
  return started ? { id: (JSON.parse(started) as { info: { sessionId: string } }).info.sessionId, text } : undefined;
}

describe("a message nested 100k deep", () => {
  it("the run goes on; the trace and the session log keep the message with its deep part cut", async () => {
    const stateDir = tempDir("conch-state-");
    const trace = path.join(tempDir(), "t.jsonl");
    const r = await runConch(["-p", "deep", "--agent", "hostile", "--trace", trace, "--output-format", "json"], {
      stateDir,
      env: { CONCH_CONFIG: hostileConfig() },
    });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { sessionId: string; text: string };
    expect(result.text).toBe("deep ok");
    expect(readFileSync(trace, "utf8")).toContain("[nested too deep]");
    expect(logged(stateDir, result.sessionId).agent).toEqual(["deep ok"]);
  });
});

describe("an agent that floods its stdout with lines that are not JSON-RPC", () => {
  it("the turn goes on; the first five are shown, then only a count now and then; the trace keeps them all", async () => {
    const stateDir = tempDir("conch-state-");
    const trace = path.join(tempDir(), "t.jsonl");
    const r = await runConch(["-p", "garbage 20000", "--agent", "hostile", "--trace", trace, "--output-format", "json"], {
      stateDir,
      env: { CONCH_CONFIG: hostileConfig() },
    });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { sessionId: string; text: string };
    expect(result.text).toBe("ok");
    const notices = logged(stateDir, result.sessionId).events.flatMap((e) =>
      e.type === "notice" && /JSON-RPC/.test(e.text) ? [e.text] : [],
    );
    expect(notices.slice(0, 5).every((t) => t.includes("garbage line"))).toBe(true);
    expect(notices.slice(5)).toEqual(
      [6, 10, 100, 1000, 10000].map(
        (n) => `the agent has written ${n} lines that are not JSON-RPC messages; they are ignored (--trace keeps them all)`,
      ),
    );
    expect(readFileSync(trace, "utf8")).toContain("garbage line 19999");
  });
});

describe("a damaged index", () => {
  it("conch sessions rebuilds it from the logs and says so; --resume still finds the session", async () => {
    const stateDir = tempDir("conch-state-");
    const cwd = tempDir();
    const env = { CONCH_CONFIG: hostileConfig() };
    const first = await runConch(["-p", "hello", "--agent", "hostile", "--output-format", "json"], { stateDir, cwd, env });
    const id = JSON.parse(first.stdout).sessionId as string;
    writeFileSync(path.join(stateDir, "index.json"), '{"version":1,"sessions":[{"id":');
    const list = await runConch(["sessions", "--json"], { stateDir, cwd, env });
    expect(list.code).toBe(0);
    expect(list.stderr).toMatch(
      /conch: the session index was damaged \(.*\); it was rebuilt from 1 session log, and the damaged file kept as .*index\.json\.damaged-/,
    );
    expect(JSON.parse(list.stdout)).toMatchObject([{ id, agent: "hostile", title: "hello", cwd }]);
    writeFileSync(path.join(stateDir, "index.json"), "garbage");
    const resumed = await runConch(["-p", "again", "--resume", id.slice(0, 14), "--output-format", "json"], { stateDir, cwd, env });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout).sessionId).toBe(id);
  });
});

describe("a client terminal that floods", () => {
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
  });

  it("20 MB of output (outputByteLimit 1 MiB) leaves a log of about 1 MB, and a resumed session still shows the last screen", async () => {
    const stateDir = tempDir("conch-state-");
    const cwd = tempDir();
    const config = hostileConfig();
    const r = await runConch(["-p", "flood 20000000", "--agent", "hostile", "--output-format", "json"], {
      stateDir,
      cwd,
      env: { CONCH_CONFIG: config },
    });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { sessionId: string; text: string };
    // The agent got what it asked for: its 1 MiB.
    expect(result.text).toBe("the agent got 1048576 bytes back");
    const logFile = sessionLogPath(result.sessionId, stateDir);
    expect(statSync(logFile).size).toBeLessThan(3 * 1024 * 1024);

    process.env.CONCH_STATE_DIR = stateDir;
    process.env.CONCH_CONFIG = config;
    const resumed = await prepareSession({ agent: undefined, continue: false, cwd, resume: result.sessionId }, "deny");
    await resumed.orchestrator.start(resumed.mode);
    const started = readSessionLog<SessionEvent>(logFile).events.find((e) => e.type === "terminal_started");
    const terminalId = started && started.type === "terminal_started" ? started.terminalId : "";
    const pane = (resumed.orchestrator.terminals as RegistryTerminalService).registry.get(terminalId)!;
    await pane.screen.flush();
    const screen = pane.screen.plainText();
    expect(screen).toContain("LAST-LINE");
    await resumed.orchestrator.shutdown();
    await resumed.recorder.close();
  });
});
