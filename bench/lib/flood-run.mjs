// conch on lib/flood-agent.mjs in a real PTY, for bench/flood.mjs: a run with a prompt sent and the
// flood on the screen, the PTY's output grouped into frames, conch's CPU sampled over time.
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { BENCH, BIN, projectRun, sleep } from "./common.mjs";
import { cpuSeconds } from "./proc.mjs";
import { isReady, TuiRun } from "./tui.mjs";

/**
 * The runs of one bench: `dir` holds each run's cwd, `marker` is the flood's last line, `bin`
 * another build's bin/conch.js to run instead of this checkout's, `nodeArgs` node's own flags for
 * conch (a `--cpu-prof`).
 */
export function floodRunner({ dir, marker, frameGapMs, bin, nodeArgs = [] }) {
  const floodWord = /w\d{6}/;
  const agentCmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(BENCH, "lib", "flood-agent.mjs"))}`;

  /**
   * Launches conch on the flood agent (with `floodEnv`), sends one prompt, and runs `during(run, ctx)`
   * once the flood is on the screen. `ctx.stats()` is the agent's own account once the flood is over.
   */
  async function floodRun(name, floodEnv, during) {
    const statsFile = path.join(dir, `${name}.stats.json`);
    rmSync(statsFile, { force: true });
    const { cwd, env } = projectRun(dir, name, { FLOOD_KIND: "words", FLOOD_MARKER: `\n${marker}\n`, FLOOD_STATS: statsFile, ...floodEnv });
    const run = new TuiRun({
      args: ["--agent", agentCmd],
      env,
      cwd,
      scrollback: 5000,
      ...(bin || nodeArgs.length ? { commandArgs: [...nodeArgs, bin ?? BIN, "--agent", agentCmd] } : {}),
    });
    try {
      await run.waitFor(isReady, 30_000, "the session to be ready");
      // Typed, then Enter on its own, as a person does (text and Enter in one read can count as a paste).
      run.write("go");
      await run.waitFor((lines) => lines.some((l) => /›\s*go/.test(l)), 5000, "the typed prompt");
      await sleep(100);
      const enterAt = run.now();
      const enterWrite = run.writes.length;
      run.write("\r");
      const firstAt = await run.waitFor((lines) => lines.some((l) => floodWord.test(l)), 30_000, "the flood on the screen");
      let drawn = false;
      run
        .waitFor((lines) => lines.some((l) => l.includes(marker)), 600_000, "the end marker")
        .then(
          () => (drawn = true),
          () => {},
        );
      const ctx = {
        enterAt,
        enterWrite,
        firstAt,
        over: () => existsSync(statsFile),
        /** The end of the flood is on the screen: conch has caught up. */
        drawn: () => drawn,
        stats: () => JSON.parse(readFileSync(statsFile, "utf8")),
        /** Resolves with the time the end marker was drawn, once the turn is over (the input invites a message again). */
        async end(timeoutMs = 120_000) {
          const markerAt = await run.waitFor(
            (lines) => lines.some((l) => l.includes(marker)),
            timeoutMs,
            "the end of the flood on the screen",
          );
          const idleAt = await run.waitFor(isReady, timeoutMs, "the turn to end");
          return { markerAt, idleAt };
        },
      };
      return await during(run, ctx);
    } finally {
      await run.stop();
    }
  }

  /** Reads from the PTY grouped into frames: `{ at, bytes }`, reads less than frameGapMs apart joined. */
  function framesOf(run, from = 0, to = Infinity) {
    const frames = [];
    for (let i = 0; i < run.writes.length; i++) {
      const at = run.writes[i];
      if (at < from || at > to) continue;
      const last = frames.at(-1);
      if (last && at - last.end < frameGapMs) {
        last.end = at;
        last.bytes += run.writeBytes[i];
      } else frames.push({ at, end: at, bytes: run.writeBytes[i] });
    }
    return frames;
  }

  /** Samples a process's CPU seconds every 50 ms; `between(a, b)` is the CPU used between two run times. */
  function cpuSampler(run) {
    const samples = [];
    const sample = () => samples.push({ at: run.now(), cpu: cpuSeconds(run.pid) });
    sample();
    const timer = setInterval(sample, 50);
    const at = (t) => {
      // The last sample at or before t, and the first after: interpolated.
      let i = samples.findIndex((s) => s.at > t);
      if (i < 0) i = samples.length - 1;
      const b = samples[i];
      const a = samples[Math.max(0, i - 1)];
      if (b.at === a.at) return b.cpu;
      return a.cpu + ((b.cpu - a.cpu) * Math.min(1, Math.max(0, t - a.at))) / (b.at - a.at);
    };
    return { stop: () => clearInterval(timer), between: (t0, t1) => at(t1) - at(t0), samples };
  }

  return { floodRun, framesOf, cpuSampler };
}
