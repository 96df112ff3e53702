#!/usr/bin/env node
// One conch launch in a real PTY, measured as a user meets it: keys typed at set times from the
// moment the process is spawned, the screen read back through @xterm/headless, and what reached
// the agent read from conch's --trace file as it is written (every message is written there
// synchronously as it goes out, so the moment a line appears is the moment it was on the wire).
//
// As a script (for real agents, inside ../shared/real-agents/with-agent, which sets $AGENT_CMD):
//   node bench/lib/startup-probe.mjs --runs 20 --agent "$AGENT_CMD" --out results.json
import { existsSync, mkdirSync, readFileSync, watch, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { hasAppFrame, TuiRun } from "./tui.mjs";

/** The App's input line with `text` typed into it (or the instant prompt's, where it is the App's editor: see tui.mjs). */
export const editorShows = (text) => (lines) => hasAppFrame(lines) && lines.some((l) => new RegExp(`^\\s*›\\s?${text}`).test(l));

/**
 * Follows a --trace file while conch writes it. `entries` are its lines so far, each with `seenAt`
 * (ms since spawn, on the bench's clock) when the bench saw it.
 */
class TraceFollower {
  constructor(file, now) {
    this.file = file;
    this.now = now;
    this.entries = [];
    this.offset = 0;
    this.partial = "";
    this.waiters = [];
    const dir = path.dirname(file);
    this.watcher = watch(dir, () => this.read());
    // inotify covers the directory; a short poll covers what it coalesces.
    this.timer = setInterval(() => this.read(), 5);
  }

  read() {
    if (!existsSync(this.file)) return;
    const text = readFileSync(this.file, "utf8");
    if (text.length <= this.offset) return;
    const t = this.now();
    const chunk = this.partial + text.slice(this.offset);
    this.offset = text.length;
    const lines = chunk.split("\n");
    this.partial = lines.pop() ?? "";
    for (const line of lines) {
      if (!line) continue;
      try {
        this.entries.push({ ...JSON.parse(line), seenAt: t });
      } catch {
        // A torn line; the rest follows.
      }
    }
    this.waiters = this.waiters.filter((w) => {
      const hit = w.test(this.entries);
      if (hit) w.resolve(hit);
      return !hit;
    });
  }

  /** Resolves with `test(entries)` once it is truthy; rejects after `timeoutMs`. */
  until(test, timeoutMs, what) {
    this.read();
    const hit = test(this.entries);
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const w = { test, resolve };
      setTimeout(() => {
        if (!this.waiters.includes(w)) return;
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what} in the trace`));
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  close() {
    this.watcher.close();
    clearInterval(this.timer);
  }
}

/** The prompts sent so far, in order: `{ text, seenAt, t }`. */
export function promptsOf(entries) {
  return entries
    .filter((e) => e.dir === "client" && e.msg?.method === "session/prompt")
    .map((e) => ({ text: (e.msg.params.prompt ?? []).map((b) => b.text ?? "").join(""), seenAt: e.seenAt, t: e.t }));
}

/** The agent's answer to `session/new` (or load/resume): `{ t, seenAt }`. */
export function sessionOpened(entries) {
  const ids = new Set(
    entries.filter((e) => e.dir === "client" && /^session\/(new|load|resume)$/.test(e.msg?.method ?? "")).map((e) => e.msg.id),
  );
  const answer = entries.find((e) => e.dir === "agent" && ids.has(e.msg?.id) && e.msg?.result);
  return answer ? { t: answer.t, seenAt: answer.seenAt } : undefined;
}

/**
 * Launches conch (this checkout's, or `bin`) in `cwd` with `agentArgs` and types `keys` (`[{ at: ms since spawn, text }]`).
 * Resolves with the launch's screen and trace once `done(run, trace)` resolves; stops conch after.
 */
export async function launch({ agentArgs, cwd, env, keys = [], done, cols = 100, rows = 30, bin }) {
  mkdirSync(cwd, { recursive: true });
  const traceFile = path.join(cwd, "..", `${path.basename(cwd)}.trace.jsonl`);
  const args = [...agentArgs, "--trace", traceFile];
  const run = new TuiRun({ args, env, cwd, cols, rows, ...(bin ? { commandArgs: [bin, ...args] } : {}) });
  const trace = new TraceFollower(traceFile, () => run.now());
  const typed = [];
  const timers = keys.map((k) =>
    setTimeout(
      () => {
        run.write(k.text);
        typed.push({ ...k, wroteAt: run.now() });
      },
      Math.max(0, k.at - run.now()),
    ),
  );
  try {
    return await done(run, trace, typed);
  } finally {
    for (const t of timers) clearTimeout(t);
    trace.close();
    await run.stop();
  }
}

/** How long the agent took to answer `session/close` (NaN when it was not sent or not answered). */
export function closeAnswerMs(entries) {
  const asked = entries.find((e) => e.dir === "client" && e.msg?.method === "session/close");
  const answer = asked && entries.find((e) => e.dir === "agent" && e.msg?.id === asked.msg.id && !e.msg.method);
  return answer ? answer.t - asked.t : NaN;
}

/**
 * A prompt typed at `at` ms: when the App first drew itself, and when the prompt was on the wire.
 * conch is then stopped (SIGTERM, as a closing terminal would); `closeMs` is how long the agent took
 * to answer the `session/close` conch sent on the way out.
 */
export async function typedPromptRun({ agentArgs, cwd, env, at = 50, text = "hello", timeoutMs = 30_000, bin }) {
  let follower;
  const result = await launch({
    bin,
    agentArgs,
    cwd,
    env,
    keys: [{ at, text: `${text}\r` }],
    done: async (run, trace) => {
      follower = trace;
      const app = await run.waitFor(hasAppFrame, timeoutMs, "the App's first frame");
      const [sent] = await trace.until(
        (entries) => (promptsOf(entries).length ? promptsOf(entries) : undefined),
        timeoutMs,
        "session/prompt",
      );
      const opened = sessionOpened(trace.entries);
      return {
        app,
        onWire: sent.seenAt,
        afterSessionOpen: opened ? sent.t - opened.t : NaN,
        sessionOpen: opened?.seenAt ?? NaN,
        text: sent.text,
      };
    },
  });
  follower.read();
  return { ...result, closeMs: closeAnswerMs(follower.entries) };
}

/** A key typed at `at` ms: when the live editor showed it (the App's, or the instant prompt that is it). */
export function keyEchoRun({ agentArgs, cwd, env, at = 50, timeoutMs = 30_000 }) {
  return launch({
    agentArgs,
    cwd,
    env,
    keys: [{ at, text: "x" }],
    done: async (run) => {
      const app = await run.waitFor(hasAppFrame, timeoutMs, "the App's first frame");
      const echoed = await run.waitFor(editorShows("x"), timeoutMs, "the key in the live editor");
      return { app, echoed };
    },
  });
}

// As a script: typed-prompt runs against the agent command given (a real agent, from with-agent).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const opt = (name, def) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : def;
  };
  const runs = Number(opt("runs", 20));
  const agent = opt("agent", process.env.AGENT_CMD);
  const out = opt("out");
  const base = process.env.PROJECT ?? process.cwd();
  const env = { ...process.env, TERM: "xterm-256color", CONCH_STATE_DIR: path.join(base, ".conch-bench-state") };
  delete env.NO_COLOR;
  const results = [];
  for (let i = -1; i < runs; i++) {
    // Run -1 warms the file cache and the agent's own first-run work; it is not counted.
    const cwd = path.join(base, `probe-${i + 1}`);
    try {
      const r = await typedPromptRun({ agentArgs: ["--agent", agent], cwd, env });
      if (i >= 0) results.push(r);
      process.stderr.write(
        `startup-probe: run ${i + 1}/${runs}: App ${r.app.toFixed(0)} ms, session open ${r.sessionOpen.toFixed(0)} ms, prompt on the wire ${r.onWire.toFixed(0)} ms\n`,
      );
    } catch (err) {
      if (i >= 0) results.push({ error: err.message.split("\n")[0] });
      process.stderr.write(`startup-probe: run ${i + 1}/${runs} failed: ${err.message.split("\n")[0]}\n`);
    }
  }
  const text = JSON.stringify(results);
  if (out) writeFileSync(out, text);
  else process.stdout.write(`${text}\n`);
}
