import { describe, expect, it } from "vitest";
import { parseTrace, type Trace } from "../../src/demo/trace-replay/load-trace.js";
import { startReplay } from "./recorded-client.js";

type Line = { t: number; dir: "client" | "agent"; msg: object } | { t: number; dir: "note"; text: string };

function traceOf(...entries: Line[]): Trace {
  return parseTrace(entries.map((e) => JSON.stringify(e)).join("\n"), "synthetic");
}

const req = (id: number | string, method: string, params: object = {}) => ({ jsonrpc: "2.0", id, method, params });
const notif = (method: string, params: object = {}) => ({ jsonrpc: "2.0", method, params });
const res = (id: number | string, result: object) => ({ jsonrpc: "2.0", id, result });
const update = (text: string) =>
  notif("session/update", {
    sessionId: "s",
    update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
  });

/** initialize → session/new (cwd) → prompt → chunk → end_turn. */
const basic = traceOf(
  { t: 0, dir: "note", text: "agent process 1 started" },
  { t: 1, dir: "client", msg: req(0, "initialize") },
  { t: 2, dir: "agent", msg: res(0, { protocolVersion: 1 }) },
  { t: 3, dir: "client", msg: req(1, "session/new", { cwd: "${PROJECT}", mcpServers: [] }) },
  { t: 4, dir: "agent", msg: res(1, { sessionId: "s", dir: "${PROJECT}" }) },
  { t: 5, dir: "client", msg: req(2, "session/prompt", { sessionId: "s", prompt: [] }) },
  { t: 6, dir: "agent", msg: update("hi") },
  { t: 7, dir: "agent", msg: res(2, { stopReason: "end_turn" }) },
  { t: 9, dir: "note", text: "client closed the stdin of agent process 1" },
  { t: 9, dir: "note", text: "agent process 1 exited (code 0) after its stdin was closed" },
);

describe("replay agent: client messages the trace does not have", () => {
  it("answers an unknown request with -32601 under the client's id, without consuming the trace", async () => {
    const h = startReplay(basic);
    h.send(req("init-x", "initialize"));
    expect(await h.collector.nth(0)).toEqual(res("init-x", { protocolVersion: 1 }));
    h.send(req(77, "session/set_mode", { sessionId: "s", modeId: "yolo" }));
    expect(await h.collector.nth(1)).toEqual({
      jsonrpc: "2.0",
      id: 77,
      error: { code: -32601, message: "Method not found", data: { method: "session/set_mode" } },
    });
    h.send(req(78, "session/new", { cwd: "/p", mcpServers: [] }));
    expect(await h.collector.nth(2)).toEqual(res(78, { sessionId: "s", dir: "/p" }));
    expect(h.logs).toContainEqual({ event: "unknown-request", method: "session/set_mode", id: 77 });
    h.agent.stop();
  });

  it("answers only as many calls of a method as the trace still expects", async () => {
    const h = startReplay(basic);
    h.send(req(10, "initialize"));
    h.send(req(11, "initialize"));
    await h.collector.waitFor(2);
    const byId = new Map(h.collector.messages.map((m) => [m.id, m]));
    expect(byId.get(10)).toEqual(res(10, { protocolVersion: 1 }));
    expect(byId.get(11)).toMatchObject({ id: 11, error: { code: -32601 } });
    h.agent.stop();
  });

  it("drops unknown notifications and answers -32601 once the segment is exhausted", async () => {
    const h = startReplay(basic);
    h.send(notif("session/cancel", { sessionId: "s" }));
    h.send(req(1, "initialize"));
    h.send(req(2, "session/new", { cwd: "/p" }));
    h.send(req(3, "session/prompt", { sessionId: "s", prompt: [] }));
    await expect(h.agent.finished).resolves.toBe("complete");
    h.send(req(4, "session/prompt", { sessionId: "s", prompt: [] }));
    expect(await h.collector.nth(4)).toMatchObject({ id: 4, error: { code: -32601 } });
    expect(h.logs).toContainEqual({ event: "ignored-notification", method: "session/cancel" });
    h.agent.stop();
  });

  it("logs input that is not JSON-RPC and carries on", async () => {
    const h = startReplay(basic);
    h.input.write("not json\n");
    h.input.write('{"jsonrpc":"2.0"}\n');
    h.send(req(1, "initialize"));
    expect(await h.collector.nth(0)).toEqual(res(1, { protocolVersion: 1 }));
    expect(h.logs.map((l) => l.event)).toEqual(["invalid-json", "not-json-rpc"]);
    h.agent.stop();
  });
});

describe("replay agent: expectations", () => {
  const cancelTrace = traceOf(
    { t: 0, dir: "note", text: "agent process 1 started" },
    { t: 1, dir: "client", msg: req(2, "session/prompt", { sessionId: "s", prompt: [] }) },
    { t: 2, dir: "agent", msg: update("working") },
    { t: 3, dir: "agent", msg: req(0, "session/request_permission", { sessionId: "s", options: [] }) },
    { t: 4, dir: "client", msg: notif("session/cancel", { sessionId: "s" }) },
    { t: 5, dir: "client", msg: res(0, { outcome: { outcome: "cancelled" } }) },
    { t: 6, dir: "agent", msg: res(2, { stopReason: "cancelled" }) },
  );

  it("buffers a cancel sent before the trace reaches it", async () => {
    const h = startReplay(cancelTrace);
    h.send(req("p1", "session/prompt", { sessionId: "s", prompt: [] }));
    h.send(notif("session/cancel", { sessionId: "s" }));
    // The agent's own request keeps its recorded id: it is in the agent's id space.
    expect(await h.collector.nth(1)).toEqual(req(0, "session/request_permission", { sessionId: "s", options: [] }));
    h.send(res(0, { outcome: { outcome: "cancelled" } }));
    expect(await h.collector.nth(2)).toEqual(res("p1", { stopReason: "cancelled" }));
    expect(h.logs.filter((l) => l.event === "ignored-notification")).toEqual([]);
    h.agent.stop();
  });

  it("waits for the answer to an agent request, and exposes an answer that differs from the recording", async () => {
    const h = startReplay(cancelTrace);
    h.send(req(9, "session/prompt", { sessionId: "s", prompt: [] }));
    h.send(notif("session/cancel", { sessionId: "s" }));
    await h.collector.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(h.collector.messages).toHaveLength(2);
    const answer = res(0, { outcome: { outcome: "selected", optionId: "reject" } });
    h.send(answer);
    expect(await h.collector.nth(2)).toEqual(res(9, { stopReason: "cancelled" }));
    const expected = {
      id: 0,
      method: "session/request_permission",
      recorded: res(0, { outcome: { outcome: "cancelled" } }),
      actual: answer,
    };
    expect(h.agent.clientAnswers).toEqual([expected]);
    expect(h.logs).toContainEqual({ event: "client-answer", ...expected });
    h.agent.stop();
  });

  it("takes ${PROJECT} from the option until the client names a cwd", async () => {
    const trace = traceOf(
      { t: 0, dir: "agent", msg: notif("x/early", { path: "${PROJECT}/a", escaped: "${PROJECT_ESCAPED}" }) },
      { t: 1, dir: "client", msg: req(1, "session/load", { sessionId: "s", cwd: "${PROJECT}" }) },
      {
        t: 2,
        dir: "agent",
        msg: notif("x/late", { path: "${PROJECT}/a", escaped: "${PROJECT_ESCAPED}", tmp: "${TMPDIR}", home: "${HOME}" }),
      },
    );
    const h = startReplay(trace, { project: "/opt/first", home: "/h", tmpdir: "/t" });
    expect(await h.collector.nth(0)).toEqual(notif("x/early", { path: "/opt/first/a", escaped: "-opt-first" }));
    h.send(req(1, "session/load", { sessionId: "s", cwd: "/srv/my.proj" }));
    expect(await h.collector.nth(1)).toEqual(notif("x/late", { path: "/srv/my.proj/a", escaped: "-srv-my-proj", tmp: "/t", home: "/h" }));
    h.agent.stop();
  });
});

describe("replay agent: timing", () => {
  it("scales the recorded gaps between agent lines, including updates after the prompt response", async () => {
    const trace = traceOf(
      { t: 0, dir: "client", msg: req(2, "session/prompt", {}) },
      { t: 1000, dir: "agent", msg: res(2, { stopReason: "end_turn" }) },
      { t: 2000, dir: "agent", msg: update("late") },
    );
    const h = startReplay(trace, { speed: 10 });
    const sent = performance.now();
    h.send(req(2, "session/prompt", {}));
    await h.collector.waitFor(1);
    const response = performance.now();
    await h.collector.waitFor(2);
    const late = performance.now();
    // Both from the moment before sending: a reading of the response delayed by a busy machine
    // cannot make a later gap look shorter than it was.
    expect(response - sent).toBeGreaterThanOrEqual(95);
    expect(late - sent).toBeGreaterThanOrEqual(185);
    h.agent.stop();
  });

  it("starts the gap after a client message when that message arrives, not when it was due", async () => {
    const trace = traceOf(
      { t: 0, dir: "note", text: "agent process 1 started" },
      { t: 0, dir: "agent", msg: update("hello") },
      { t: 100, dir: "client", msg: req(1, "session/prompt", {}) },
      { t: 600, dir: "agent", msg: res(1, { stopReason: "end_turn" }) },
    );
    const h = startReplay(trace, { speed: 10 });
    await h.collector.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const sent = performance.now();
    h.send(req(1, "session/prompt", {}));
    await h.collector.waitFor(2);
    expect(performance.now() - sent).toBeGreaterThanOrEqual(45);
    h.agent.stop();
  });

  it("stop() ends a pending delay at once", async () => {
    const trace = traceOf({ t: 0, dir: "note", text: "agent process 1 started" }, { t: 60_000, dir: "agent", msg: update("never") });
    const h = startReplay(trace, { speed: 1 });
    h.agent.stop();
    await expect(h.agent.finished).resolves.toBe("stopped");
    await expect(h.agent.exited).resolves.toEqual({ code: null, reason: "stopped" });
    expect(h.collector.messages).toEqual([]);
  });
});

describe("replay agent: stdin EOF", () => {
  it("exits 0 even while waiting for a client message, if the recorded agent exited on EOF", async () => {
    const h = startReplay(basic);
    h.input.end();
    await expect(h.agent.exited).resolves.toEqual({ code: 0, reason: "stdin-closed" });
    await expect(h.agent.finished).resolves.toBe("stopped");
  });

  it("keeps playing after EOF if the recorded agent ignored it", async () => {
    const trace = traceOf(
      { t: 0, dir: "note", text: "agent process 1 started" },
      { t: 10, dir: "agent", msg: update("after eof") },
      {
        t: 20,
        dir: "note",
        text: "agent process 1 exited on SIGTERM (sent … after closing stdin; the agent had not exited on its own)",
      },
    );
    const h = startReplay(trace, { speed: 1 });
    expect(h.agent.segment.eofPolicy).toBe("ignore");
    h.input.end();
    await h.agent.stdinClosed;
    await expect(h.agent.finished).resolves.toBe("complete");
    expect(h.collector.messages).toEqual([update("after eof")]);
    h.agent.stop();
    await expect(h.agent.exited).resolves.toEqual({ code: null, reason: "stopped" });
  });
});
