import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { SessionEvent } from "../../src/session/events.js";

export const TRACES = path.resolve(__dirname, "../../../shared/traces");

/** Every recorded trace in ../shared/traces, as `agent/file.jsonl`. */
export function allTraces(): string[] {
  return readdirSync(TRACES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(path.join(TRACES, d.name))
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => `${d.name}/${f}`),
    );
}

type Msg = {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
};
type Line = { t: number; dir: "client" | "agent" | "note"; msg?: Msg; text?: string };

/** Reads a trace file from ../shared/traces. */
export function readTrace(rel: string): Line[] {
  return readFileSync(path.isAbsolute(rel) ? rel : path.join(TRACES, rel), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
}

/**
 * Turns a recorded trace into the events conch's acp/ layer would have produced, the way the
 * orchestrator would log them (client requests become intents, agent messages become updates).
 * `process` selects one agent process of multi-process traces.
 */
export function traceToEvents(rel: string, opts: { process?: number } = {}): SessionEvent[] {
  const lines = readTrace(rel);
  const want = opts.process ?? 0;
  let proc = 0;
  const events: SessionEvent[] = [];
  const clientReq = new Map<string, { method: string; turnId?: string }>();
  const agentReq = new Map<string, Msg>();
  let turns = 0;
  for (const line of lines) {
    if (line.dir === "note") {
      const m = /^agent process (\d+) started/.exec(line.text ?? "");
      if (m) proc = Number(m[1]);
      continue;
    }
    if (want && proc !== want) continue;
    const msg = line.msg!;
    const at = line.t;
    if (line.dir === "client") {
      if (msg.method) {
        const key = String(msg.id);
        if (msg.method === "session/prompt") {
          const turnId = `t${++turns}`;
          clientReq.set(key, { method: msg.method, turnId });
          events.push({ type: "prompt_sent", at, turnId, prompt: msg.params!.prompt as never });
        } else if (msg.method === "session/cancel") {
          events.push({ type: "cancel_requested", at });
        } else if (msg.method === "session/load") {
          clientReq.set(key, { method: msg.method });
          events.push({ type: "replay_started", at });
        } else if (msg.id !== undefined) {
          clientReq.set(key, { method: msg.method });
        }
      } else if (msg.id !== undefined) {
        // the client's answer to an agent request
        const req = agentReq.get(String(msg.id));
        if (req?.method === "session/request_permission" && msg.result) {
          events.push({ type: "permission_answered", at, key: `agent:${msg.id}`, outcome: msg.result.outcome as never, source: "user" });
        }
      }
      continue;
    }
    if (msg.method === "session/update") {
      events.push({ type: "update", at, notification: msg.params as never });
    } else if (msg.method === "session/request_permission") {
      agentReq.set(String(msg.id), msg);
      events.push({ type: "permission_asked", at, key: `agent:${msg.id}`, request: msg.params as never });
    } else if (msg.method && msg.id !== undefined) {
      agentReq.set(String(msg.id), msg);
    } else if (!msg.method && msg.id !== undefined) {
      const req = clientReq.get(String(msg.id));
      if (!req) continue;
      if (req.method === "initialize" && msg.result) {
        const r = msg.result as Record<string, unknown>;
        events.push({ type: "agent_ready", at, info: r.agentInfo as never, capabilities: r.agentCapabilities as never });
      } else if (req.method === "session/prompt") {
        events.push({ type: "prompt_response", at, turnId: req.turnId!, response: msg.result as never, error: msg.error?.message });
      } else if (req.method === "session/new" || req.method === "session/load" || req.method === "session/resume") {
        const r = (msg.result ?? {}) as Record<string, unknown>;
        if (req.method === "session/load") events.push({ type: "replay_ended", at, error: msg.error?.message });
        if (!msg.error) {
          events.push({
            type: "session_started",
            at,
            info: {
              sessionId: (r.sessionId as string) ?? "loaded",
              cwd: "${PROJECT}",
              agentName: rel.split("/")[0],
              modes: r.modes as never,
              models: r.models as never,
              configOptions: r.configOptions as never,
              origin: req.method === "session/new" ? "new" : req.method === "session/load" ? "load" : "resume",
            },
          });
        }
      }
    }
  }
  return events;
}
