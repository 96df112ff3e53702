#!/usr/bin/env node
// Streaming benchmark of the interactive UI: the real <App> rendered by Ink into a fake terminal,
// a 1,000-item transcript already printed, then agent_message_chunk updates at a fixed rate through
// a real Orchestrator fed by a scripted agent port. Reports frames/s, Ink render time, bytes written
// per frame early and late (they must not grow with the transcript), CPU use, and whether the final
// transcript holds exactly the text that was streamed.
//
//   npm run build && node bench/stream.mjs [--seconds 30] [--rate 1000] [--items 1000] [--segment 500] [--json]
import { Writable, PassThrough } from "node:stream";
import { parseArgs } from "node:util";

// Ink draws differently under CI (no redraws at all); measure what a person's terminal gets.
for (const key of Object.keys(process.env))
  if (key === "CI" || key === "CONTINUOUS_INTEGRATION" || key.startsWith("CI_")) delete process.env[key];

// As the CLI runs it (run-interactive sets this before loading React).
process.env.NODE_ENV ??= "production";

const { values: args } = parseArgs({
  options: {
    seconds: { type: "string", default: "30" },
    rate: { type: "string", default: "1000" },
    items: { type: "string", default: "1000" },
    segment: { type: "string", default: "500" },
    cols: { type: "string", default: "100" },
    rows: { type: "string", default: "40" },
    json: { type: "boolean", default: false },
    incremental: { type: "boolean", default: false },
  },
});
const SECONDS = Number(args.seconds);
const RATE = Number(args.rate);
const PREFILL_ITEMS = Number(args.items);
const SEGMENT = Number(args.segment);
const WINDOW_S = Math.min(5, SECONDS / 2);

const React = (await import("react")).default;
const { render } = await import("ink");
const { App } = await import("../dist/ui/app/app.js");
const { Orchestrator } = await import("../dist/orchestrator/orchestrator.js");

/** A terminal that only counts: what Ink writes, when, and how much. */
class FakeTty extends Writable {
  columns = Number(args.cols);
  rows = Number(args.rows);
  isTTY = true;
  bytes = 0;
  log = [];
  recording = false;
  tail = "";
  _write(chunk, _enc, done) {
    const text = chunk.toString();
    this.bytes += Buffer.byteLength(text);
    if (this.recording) this.log.push({ at: performance.now(), bytes: Buffer.byteLength(text) });
    this.tail = (this.tail + text).slice(-20_000);
    done();
  }
}

function fakeStdin() {
  const stdin = new PassThrough();
  stdin.isTTY = true;
  stdin.setRawMode = () => stdin;
  stdin.ref = () => stdin;
  stdin.unref = () => stdin;
  return stdin;
}

/** A scripted agent: prompts stay open until the bench answers them; updates go straight to the client hooks. */
function scriptedAgent() {
  const agent = { hooks: undefined, answers: [] };
  agent.port = {
    init: { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name: "bench", title: "bench agent", version: "1" } },
    conn: {
      newSession: async () => ({ sessionId: "bench" }),
      loadSession: async () => ({}),
      resumeSession: async () => ({}),
      prompt: () => new Promise((resolve) => agent.answers.push(resolve)),
      cancel: async () => {},
      setMode: async () => ({}),
      setConfigOption: async () => ({}),
      setModel: async () => ({}),
    },
    exited: new Promise(() => {}),
    stop: async () => {},
    killNow() {},
  };
  agent.update = (update) => agent.hooks.onUpdate({ sessionId: "bench", update });
  return agent;
}

const word = (n) => `w${String(n).padStart(6, "0")}`;

const agent = scriptedAgent();
const orch = new Orchestrator({
  agent: { name: "bench", command: { command: "bench", args: [] }, via: "command" },
  cwd: process.cwd(),
  policy: "ask",
  timing: { quietMs: 50 },
  connect: async (hooks) => {
    agent.hooks = hooks;
    return agent.port;
  },
});

// A long session already on screen: turns of divider + prompt + a few lines of answer.
for (let t = 0; orch.state.items.length < PREFILL_ITEMS; t++) {
  const turnId = `pre${t}`;
  orch.dispatch({ type: "prompt_sent", turnId, prompt: [{ type: "text", text: `earlier question ${t}` }] });
  orch.dispatch({
    type: "update",
    notification: {
      sessionId: "bench",
      update: {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: `Earlier answer ${t}: **some** text,\n- a list item\n- another one with \`code\`` },
      },
    },
  });
  orch.dispatch({ type: "prompt_response", turnId, response: { stopReason: "end_turn" } });
  orch.dispatch({ type: "settled" });
}
const prefilled = orch.state.items.length;

const stdout = new FakeTty();
const renders = [];
const renderStart = performance.now();
const ink = render(React.createElement(App, { session: orch, agentName: "bench", cwd: process.cwd() }), {
  stdout,
  stdin: fakeStdin(),
  stderr: new PassThrough(),
  exitOnCtrlC: false,
  patchConsole: false,
  incrementalRendering: args.incremental,
  onRender: ({ renderTime }) => renders.push({ at: performance.now(), renderTime, bytes: stdout.bytes }),
});
await orch.start();
await new Promise((r) => setTimeout(r, 200));
const firstPaintMs = performance.now() - renderStart;
const prefillBytes = stdout.bytes;

// Stream.
orch.send("stream please");
await new Promise((r) => setTimeout(r, 20));
const chunks = [];
let sent = 0;
let toolCalls = 0;
stdout.recording = true;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
renders.length = 0;
await new Promise((resolve) => {
  const timer = setInterval(() => {
    const elapsed = (performance.now() - t0) / 1000;
    // Catch up to the target rate even when rendering delayed this tick.
    const target = Math.min(Math.floor(elapsed * RATE), Math.floor(SECONDS * RATE));
    while (sent < target) {
      if (SEGMENT > 0 && sent > 0 && sent % SEGMENT === 0) {
        // A tool call between answers, as real agents do: the text before it settles into the scrollback.
        const toolCallId = `tool${++toolCalls}`;
        agent.update({ sessionUpdate: "tool_call", toolCallId, title: `Read file${toolCalls}.ts`, kind: "read", status: "completed" });
      }
      // Fixed-width words, so later chunks are not longer than early ones.
      const text = `${word(sent)}${sent % 12 === 11 ? "\n" : " "}`;
      chunks.push(text);
      agent.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
      sent++;
    }
    if (elapsed >= SECONDS) {
      clearInterval(timer);
      resolve();
    }
  }, 5);
});
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
stdout.recording = false;

// End the turn, let it settle, and compare what the session holds with what was sent.
agent.answers[agent.answers.length - 1]({ stopReason: "end_turn" });
await orch.waitFor(["idle"]);
await new Promise((r) => setTimeout(r, 300));
const turnId = orch.state.turns[orch.state.turns.length - 1].id;
const received = orch.state.items
  .filter((i) => i.kind === "agent" && i.turnId === turnId)
  .map((i) => i.text)
  .join("");
const expected = chunks.join("");
// Each new message drops leading newlines; chunk boundaries here never start with one, so the text must match exactly.
const textMatches = received === expected;
const lastWordOnScreen = stdout.tail.includes(word(sent - 1));
ink.unmount();

const streamRenders = renders.filter((r) => r.at >= t0 && r.at <= t0 + wall * 1000);
const pct = (xs, p) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
// Bytes a frame wrote: everything between the previous render and the next one (Ink writes right after rendering).
const frameBytes = streamRenders.map((r, i) => {
  const next = streamRenders[i + 1]?.at ?? Infinity;
  return { at: r.at, bytes: stdout.log.filter((w) => w.at >= r.at && w.at < next).reduce((n, w) => n + w.bytes, 0) };
});
const windowStats = (from, to) => {
  const inWindow = frameBytes.filter((f) => f.at >= t0 + from * 1000 && f.at < t0 + to * 1000);
  const bytes = inWindow.reduce((n, f) => n + f.bytes, 0);
  return {
    frames: inWindow.length,
    bytesPerFrame: inWindow.length ? Math.round(bytes / inWindow.length) : 0,
    // Frames that also printed settled items are bigger; the median is the steady redraw of the live region.
    medianBytesPerFrame: Math.round(
      pct(
        inWindow.map((f) => f.bytes),
        50,
      ),
    ),
    fps: +(inWindow.length / (to - from)).toFixed(1),
  };
};
const first = windowStats(0, WINDOW_S);
const last = windowStats(wall - WINDOW_S, wall);
const times = streamRenders.map((r) => r.renderTime);

const result = {
  seconds: +wall.toFixed(2),
  chunksSent: sent,
  chunksPerSecond: Math.round(sent / wall),
  prefilledItems: prefilled,
  finalItems: orch.state.items.length,
  toolCalls,
  firstPaintMs: Math.round(firstPaintMs),
  prefillBytes,
  frames: streamRenders.length,
  framesPerSecond: +(streamRenders.length / wall).toFixed(1),
  renderMsP50: +pct(times, 50).toFixed(2),
  renderMsP95: +pct(times, 95).toFixed(2),
  renderMsMax: +Math.max(0, ...times).toFixed(2),
  bytesPerFrameFirst: first.bytesPerFrame,
  bytesPerFrameLast: last.bytesPerFrame,
  medianBytesPerFrameFirst: first.medianBytesPerFrame,
  medianBytesPerFrameLast: last.medianBytesPerFrame,
  fpsFirst: first.fps,
  fpsLast: last.fps,
  cpuPercentOfCore: +(((cpu.user + cpu.system) / 1000 / (wall * 1000)) * 100).toFixed(1),
  heapMB: Math.round(process.memoryUsage().heapUsed / 1e6),
  transcriptMatchesChunks: textMatches,
  lastChunkOnScreen: lastWordOnScreen,
};

if (args.json) {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} else {
  const rows = [
    ["stream", `${result.chunksSent} chunks in ${result.seconds}s (${result.chunksPerSecond}/s), ${toolCalls} tool calls between`],
    ["transcript", `${prefilled} items before, ${result.finalItems} after`],
    ["first paint", `${result.firstPaintMs} ms, ${(prefillBytes / 1024).toFixed(0)} KiB (the whole prefilled transcript)`],
    ["frames/s", `${result.framesPerSecond} (first ${WINDOW_S}s ${first.fps}, last ${WINDOW_S}s ${last.fps})`],
    ["render ms", `p50 ${result.renderMsP50} · p95 ${result.renderMsP95} · max ${result.renderMsMax}`],
    [
      "bytes/frame",
      `mean: first ${WINDOW_S}s ${first.bytesPerFrame} · last ${WINDOW_S}s ${last.bytesPerFrame}; median: first ${first.medianBytesPerFrame} · last ${last.medianBytesPerFrame}`,
    ],
    ["cpu", `${result.cpuPercentOfCore}% of a core · heap ${result.heapMB} MB`],
    [
      "text",
      `${textMatches ? "final transcript == concatenated chunks" : "MISMATCH: final transcript differs from the chunks"}; last chunk ${lastWordOnScreen ? "was" : "was NOT"} drawn`,
    ],
  ];
  const w = Math.max(...rows.map((r) => r[0].length));
  for (const [k, v] of rows) process.stdout.write(`${k.padEnd(w)}  ${v}\n`);
}
process.exit(textMatches ? 0 : 1);
