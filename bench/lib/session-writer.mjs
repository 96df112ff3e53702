#!/usr/bin/env node
// Writes a generated session the way conch writes one (an Orchestrator on a scripted agent, recorded
// by SessionRecorder: openSessionLog + upsertSession) for agent `demo`, and gives the demo agent the
// same session in its own store, so `conch --resume <id>` works with the demo (which replays it
// through session/load) and with an agent that cannot load (conch folds its own log).
//
// As a script, to try a long session by hand:
//   node bench/lib/session-writer.mjs --turns 2000 [--dir /tmp/long]   (or --updates 10000)
// prints the command that resumes it.
import { mkdirSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";

/**
 * Writes `turns` (`[{ prompt, updates }]`) under `dir`: `state/` (conch's), `demo-state/` (the demo
 * agent's) and `project/` (the session's cwd). Returns the session id and the log's size.
 */
export async function writeSession(turns, dir) {
  const { startOrchestrator, playTurns } = await import("./drive.mjs");
  const { SessionRecorder } = await import("../../dist/orchestrator/record/session-recorder.js");
  const { demoAgentCommand } = await import("../../dist/agents/presets.js");
  const { appendToHistory } = await import("../../dist/demo/session-history.js");
  const { SessionStore } = await import("../../dist/demo/session-store.js");
  const { sessionLogPath } = await import("../../dist/store/state-dir.js");
  const root = path.join(dir, "state");
  const demoState = path.join(dir, "demo-state");
  const cwd = path.join(dir, "project");
  mkdirSync(cwd, { recursive: true });
  const id = `demo-${randomUUID()}`;
  const demoCmd = demoAgentCommand();
  const recorder = new SessionRecorder({ agent: "demo", agentCommand: [demoCmd.command, ...demoCmd.args], cwd, root });
  const { orch, agent } = await startOrchestrator({ sessionId: id, sink: recorder, cwd, agentName: "demo", agentCommand: demoCmd });
  recorder.attach(() => orch.state);
  await playTurns(orch, agent, turns);
  await recorder.close();
  const history = [];
  for (const t of turns) {
    appendToHistory(history, { sessionUpdate: "user_message_chunk", content: { type: "text", text: t.prompt } });
    for (const u of t.updates) appendToHistory(history, u);
  }
  const now = new Date().toISOString();
  new SessionStore(demoState).saveSync({
    version: 1,
    sessionId: id,
    cwd,
    title: turns[0].prompt.slice(0, 60),
    createdAt: now,
    updatedAt: now,
    modeId: "code",
    model: "demo-fast",
    allowAlwaysEdits: false,
    usedTokens: 0,
    history,
  });
  const logFile = sessionLogPath(id, root);
  return {
    id,
    root,
    demoState,
    cwd,
    logBytes: statSync(logFile).size,
    logEvents: readFileSync(logFile, "utf8").split("\n").filter(Boolean).length,
    replayUpdates: history.length,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const opt = (name) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const { generateLongSession, generateTurns } = await import("./session-gen.mjs");
  const turns = opt("updates")
    ? generateTurns({ updates: Number(opt("updates")) })
    : generateLongSession({ turns: Number(opt("turns") ?? 2000) });
  const dir = opt("dir") ?? mkdtempSync(path.join(tmpdir(), "conch-session-"));
  const s = await writeSession(turns, dir);
  const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "bin", "conch.js");
  process.stdout.write(
    `wrote ${turns.length} turns: conch's log ${(s.logBytes / 1e6).toFixed(1)} MB, ${s.logEvents} events\n` +
      `resume it (the demo replays it):  cd ${s.cwd} && CONCH_STATE_DIR=${s.root} CONCH_DEMO_STATE=${s.demoState} CONCH_DEMO_DELAY_MS=0 node ${bin} --resume ${s.id}\n`,
  );
}
