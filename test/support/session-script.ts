import { writeFileSync } from "node:fs";
import path from "node:path";
import type { SessionEvent } from "../../src/session/events.js";
import { headerLine } from "../../src/store/log-format.js";
import { tempDir } from "./run-conch.js";
import { traceToEvents } from "./trace-events.js";

/** The session id of a scripted log. */
export const SID = "s-main";

/** A log as conch's recorder writes it: the header, then one event a line. */
export function logOf(events: readonly SessionEvent[]): string {
  const file = path.join(tempDir("conch-resumed-log-"), "session.jsonl");
  writeFileSync(file, [headerLine(), ...events.map((ev) => JSON.stringify(ev))].join("\n") + "\n");
  return file;
}

/** A session's events, written the way the event queue stamps them. */
export class Script {
  readonly events: SessionEvent[] = [];
  private clock = 1_000;
  private turns = 0;

  constructor(agentName = "claude-agent-acp") {
    this.add({ type: "agent_ready", info: { name: agentName, version: "1" }, capabilities: { loadSession: true } });
    this.add({ type: "session_started", info: { sessionId: SID, cwd: "/p", agentName, origin: "new" } });
  }

  add(ev: Record<string, unknown>): this {
    const at = ++this.clock;
    const { type, ...rest } = ev;
    this.events.push({ type, at, ...rest } as SessionEvent);
    return this;
  }

  update(update: Record<string, unknown>, sessionId = SID): this {
    return this.add({ type: "update", notification: { sessionId, update } });
  }

  text(text: string, kind = "agent_message_chunk", sessionId = SID): this {
    return this.update({ sessionUpdate: kind, content: { type: "text", text }, messageId: `m${this.turns}` }, sessionId);
  }

  /** A prompt and its answer; `body` adds what comes between. */
  turn(prompt: string, body: (s: this, turnId: string) => void = (s) => s.text("An answer."), stopReason = "end_turn"): string {
    const turnId = `t${++this.turns}`;
    this.add({ type: "prompt_sent", turnId, prompt: [{ type: "text", text: prompt }] });
    this.add({ type: "checkpoint", turnId, stage: "start", tree: `tree-${turnId}` });
    body(this, turnId);
    this.add({ type: "prompt_response", turnId, response: { stopReason } });
    this.add({ type: "settled" });
    return turnId;
  }
}

/** A scripted log of 30 turns: text and thoughts, calls, writes, checkpoints, and cancelled prompts. */
export function longSession(agentName?: string): Script {
  const s = new Script(agentName);
  s.add({ type: "checkpoint", turnId: "", stage: "open", tree: "tree-0" });
  for (let i = 0; i < 30; i++) {
    s.turn(
      `prompt ${i % 7}`,
      (s, turnId) => {
        s.text("", "agent_thought_chunk").text("Thinking it over.", "agent_thought_chunk");
        s.text("## Step\n\n").text("").text("Some `code`").text(" and more.\n");
        if (i % 3 === 0) {
          const id = `call-${i}`;
          s.update({ sessionUpdate: "tool_call", toolCallId: id, title: `Run ${i}`, kind: "execute", status: "in_progress" });
          s.text("While it runs.");
          s.update({ sessionUpdate: "tool_call_update", toolCallId: id, status: "completed", content: [] });
          s.add({ type: "checkpoint", turnId, stage: "call", tree: `tree-${i}` });
        }
        if (i % 5 === 0) {
          s.add({ type: "file_written", turnId, path: `/p/f${i}.ts`, before: null, after: { bytes: 3, sha256: "abc" } });
        }
        if (i % 4 === 1) s.add({ type: "cancel_requested" });
        s.text("Done.");
      },
      i % 4 === 1 ? "cancelled" : "end_turn",
    );
  }
  return s;
}

/** A recorded trace's events as conch's recorder logs them: a replay is not written, and a loaded session keeps its id. */
export function loggedTrace(trace: string): SessionEvent[] {
  let replaying = false;
  let first: string | undefined;
  const events: SessionEvent[] = [];
  for (const ev of traceToEvents(trace)) {
    if (ev.type === "replay_started" || ev.type === "replay_ended") {
      replaying = ev.type === "replay_started";
      continue;
    }
    if (replaying && ev.type === "update") continue;
    if (ev.type === "session_started") {
      first ??= ev.info.sessionId;
      events.push({ ...ev, info: { ...ev.info, sessionId: ev.info.origin === "load" ? first : ev.info.sessionId } });
    } else events.push(ev);
  }
  return events;
}
