import { statSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Orchestrator } from "../../../src/orchestrator/orchestrator.js";
import { SessionRecorder } from "../../../src/orchestrator/record/session-recorder.js";
import { LOGGED_HEAD_CHARS, LOGGED_TAIL_CHARS } from "../../../src/orchestrator/record/terminal-output-budget.js";
import type { SessionEvent } from "../../../src/session/events.js";
import { foldEvents } from "../../../src/session/reduce.js";
import { readSessionLog } from "../../../src/store/session-log.js";
import { ensureStateDir, sessionLogPath } from "../../../src/store/state-dir.js";
import { tempDir } from "../../support/run-conch.js";
import { flush, type FakeAgent } from "../fake-agent.js";
import { recordedSession } from "./recorded-session.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

async function turn(orch: Orchestrator, agent: FakeAgent, n: number, prompt: string, answer: string): Promise<void> {
  orch.send(prompt);
  await flush();
  agent.text(answer);
  agent.respond(n);
  await flush();
  await vi.advanceTimersByTimeAsync(200);
  expect(orch.state.phase).toBe("idle");
}

const notices = (orch: Orchestrator) =>
  orch.state.items.filter((i) => i.kind === "notice").map((i) => (i.kind === "notice" ? `${i.level}: ${i.text}` : ""));
const texts = (events: SessionEvent[], kind: "user" | "agent") =>
  foldEvents(events)
    .items.filter((i) => i.kind === kind)
    .map((i) => ("text" in i ? i.text : ""));

describe("the session log on a full disk", () => {
  it("a full disk mid-session is reported once, the session goes on, and nothing is lost once space returns", async () => {
    const { root, recorder, orch, agent, disk } = await recordedSession();
    await turn(orch, agent, 0, "one", "first answer");
    disk.full = true;
    await turn(orch, agent, 1, "two", "second answer");
    await turn(orch, agent, 2, "three", "third answer");
    const warnings = notices(orch).filter((n) => n.startsWith("warning"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/the session log .* cannot be written \(ENOSPC: no space left on device, write\): the session goes on/);
    expect(orch.state.items.filter((i) => i.kind === "agent").map((i) => ("text" in i ? i.text : ""))).toEqual([
      "first answer",
      "second answer",
      "third answer",
    ]);

    disk.full = false;
    await turn(orch, agent, 3, "four", "fourth answer");
    expect(notices(orch)).toContain("info: the session log is written again; nothing was lost");
    await recorder.close();
    const logged = readSessionLog<SessionEvent>(sessionLogPath("s1", root));
    expect(texts(logged.events, "user")).toEqual(["one", "two", "three", "four"]);
    expect(texts(logged.events, "agent")).toEqual(["first answer", "second answer", "third answer", "fourth answer"]);
  });

  it("a disk that never recovers: the run ends normally, says what was not saved, and what came before stays readable", async () => {
    const { root, recorder, orch, agent, disk } = await recordedSession();
    await turn(orch, agent, 0, "one", "first answer");
    disk.full = true;
    await turn(orch, agent, 1, "two", "second answer");
    await orch.shutdown();
    await expect(recorder.close()).resolves.toBeUndefined();
    expect(
      notices(orch).some((n) => /^error: the session log .* could not be written: the last \d+ events of this run are not saved/.test(n)),
    ).toBe(true);
    const logged = readSessionLog<SessionEvent>(sessionLogPath("s1", root));
    expect(texts(logged.events, "user")).toEqual(["one"]);
    expect(texts(logged.events, "agent")).toEqual(["first answer"]);
  });

  it("a second recorder on a session another one has open records nothing and says so", async () => {
    const first = await recordedSession();
    const root = first.root;
    const second = new SessionRecorder({ agent: "fake", agentCommand: ["fake"], cwd: "/tmp", root });
    const said: string[] = [];
    second.attach(
      () => first.orch.state,
      (level, text) => said.push(`${level}: ${text}`),
    );
    second.append({ type: "session_started", at: 1, info: { sessionId: "s1", cwd: "/tmp", agentName: "fake", origin: "new" } });
    expect(said).toEqual([
      `error: session s1 is open in another conch (pid ${process.pid}): this one does not record it, so what happens here is not saved`,
    ]);
    await second.close();
    await first.recorder.close();
  });
});

describe("client terminal output in the session log", () => {
  const started = (terminalId: string): SessionEvent => ({
    type: "terminal_started",
    at: 1,
    terminalId,
    command: "yes",
    args: [],
    cwd: "/tmp",
  });

  it("a command printing 20 MB logs its head and its last screen, not every byte, and a resume shows the end", async () => {
    const root = ensureStateDir(tempDir("conch-state-"));
    const recorder = new SessionRecorder({ agent: "fake", agentCommand: ["fake"], cwd: "/tmp", root });
    recorder.append({ type: "session_started", at: 0, info: { sessionId: "s1", cwd: "/tmp", agentName: "fake", origin: "new" } });
    recorder.append(started("t"));
    const chunk = `${"y\r\n".repeat(16 * 1024)}`; // 48 KiB, as the terminal service batches it
    let total = 0;
    for (let i = 0; total < 20 * 1024 * 1024; i++) {
      recorder.append({ type: "terminal_output", at: 2 + i, terminalId: "t", data: chunk });
      total += chunk.length;
    }
    recorder.append({ type: "terminal_output", at: 5000, terminalId: "t", data: "LAST-LINE\r\n" });
    recorder.append({ type: "terminal_exited", at: 5001, terminalId: "t", exitCode: 0, signal: null });
    await recorder.close();
    const path = sessionLogPath("s1", root);
    // JSON writes "\r\n" as four bytes: the file is bounded by the kept characters, escaped.
    expect(statSync(path).size).toBeLessThan(3 * 1024 * 1024);
    const { events } = readSessionLog<SessionEvent>(path);
    // The event shape is kept; the exit comes after all the output that was kept.
    expect(events.map((e) => e.type).slice(-2)).toEqual(["terminal_output", "terminal_exited"]);
    const view = foldEvents(events).terminals.t;
    expect(view.exited).toBe(true);
    expect(view.outputTail.endsWith("LAST-LINE\r\n")).toBe(true);
    const logged = events
      .filter((e): e is Extract<SessionEvent, { type: "terminal_output" }> => e.type === "terminal_output")
      .map((e) => e.data)
      .join("");
    expect(logged.length).toBeLessThanOrEqual(LOGGED_HEAD_CHARS + LOGGED_TAIL_CHARS + 200);
    expect(logged.startsWith(chunk)).toBe(true);
    expect(logged).toMatch(/\[conch: \d+ characters of this output were not kept in the session log\]/);
  });

  it("a flood that goes on for hours writes its tail now and then, each time after twice as long", () => {
    const root = ensureStateDir(tempDir("conch-state-"));
    const recorder = new SessionRecorder({ agent: "fake", agentCommand: ["fake"], cwd: "/tmp", root });
    recorder.append({ type: "session_started", at: 0, info: { sessionId: "s1", cwd: "/tmp", agentName: "fake", origin: "new" } });
    recorder.append(started("t"));
    const data = "x".repeat(64 * 1024);
    // Three hours of output, one event a second: 700 MB.
    for (let s = 0; s < 3 * 3600; s++) recorder.append({ type: "terminal_output", at: s * 1000, terminalId: "t", data });
    recorder.flush();
    const size = statSync(sessionLogPath("s1", root)).size;
    // Head, then tails at 10 s, 30 s, 70 s, … (doubling): about a dozen tails, not 10,800 events.
    expect(size).toBeLessThan(LOGGED_HEAD_CHARS + 14 * (LOGGED_TAIL_CHARS + 200));
    expect(size).toBeGreaterThan(LOGGED_HEAD_CHARS + 5 * LOGGED_TAIL_CHARS);
  });

  it("ordinary output is logged as it comes, event for event", async () => {
    const root = ensureStateDir(tempDir("conch-state-"));
    const recorder = new SessionRecorder({ agent: "fake", agentCommand: ["fake"], cwd: "/tmp", root });
    recorder.append({ type: "session_started", at: 0, info: { sessionId: "s1", cwd: "/tmp", agentName: "fake", origin: "new" } });
    recorder.append(started("t"));
    const outputs: SessionEvent[] = Array.from({ length: 50 }, (_, i) => ({
      type: "terminal_output",
      at: 10 + i,
      terminalId: "t",
      data: `line ${i}\r\n`,
    }));
    for (const ev of outputs) recorder.append(ev);
    await recorder.close();
    expect(readSessionLog<SessionEvent>(sessionLogPath("s1", root)).events.filter((e) => e.type === "terminal_output")).toEqual(outputs);
  });
});

describe("a flood of chunks in the session log", () => {
  it("a burst of chunks to one message is a few records, and the log folds to the answer the session showed", async () => {
    const { root, recorder, orch, agent } = await recordedSession();
    orch.send("go");
    await flush();
    const words = Array.from({ length: 3000 }, (_, i) => `w${i} `);
    for (let b = 0; b < 3; b++) {
      agent.hooks.onBurst?.("start");
      for (const w of words.slice(b * 1000, (b + 1) * 1000)) agent.text(w);
      agent.hooks.onBurst?.("end");
      await flush();
    }
    agent.respond(0);
    await flush();
    await vi.advanceTimersByTimeAsync(200);
    expect(orch.state.phase).toBe("idle");
    await recorder.close();
    const logged = readSessionLog<SessionEvent>(sessionLogPath("s1", root)).events;
    const chunks = logged.filter((e) => e.type === "update" && e.notification.update.sessionUpdate === "agent_message_chunk");
    // Per burst: its first chunk as it came, then the rest joined.
    expect(chunks).toHaveLength(6);
    expect(texts(logged, "agent")).toEqual([words.join("")]);
    expect(texts(logged, "agent")).toEqual(orch.state.items.filter((i) => i.kind === "agent").map((i) => ("text" in i ? i.text : "")));
  });
});
