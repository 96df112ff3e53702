#!/usr/bin/env node
// idle: the TUI left alone for 10 s once the session is ready: frames per second (writes to the
// PTY), CPU of the conch process (utime+stime from /proc/<pid>/stat) and its resident memory (VmRSS
// at the end of the window). Goals: 0 frames/s, <= 2% CPU, <= 80 MiB RSS.
import { log, metric, numOpt, parseArgs, projectRun, report, sleep, tempDir, waitForBuild } from "./lib/common.mjs";
import { cpuSeconds, memKiB, processTree } from "./lib/proc.mjs";
import { isReady, TuiRun } from "./lib/tui.mjs";

const args = parseArgs();
const RUNS = numOpt(args, "runs", 3, 1);
const SECONDS = numOpt(args, "seconds", 10, 3);
/** After "ready" the demo still announces its slash commands; the idle window starts after this grace. */
const GRACE_MS = numOpt(args, "grace-ms", 1000);
const dir = tempDir("idle");

if (!(await waitForBuild(["dist/cli/main.js", "dist/ui/app/app.js"], numOpt(args, "wait-build", 60, 5) * 1000))) {
  report(args, {
    bench: "idle",
    metrics: [metric({ name: "frames/s while idle", unit: "frames/s", goal: { op: "<=", value: 0 }, skip: "the TUI is not built" })],
  });
  process.exit(0);
}

async function once(i) {
  const { cwd, env } = projectRun(dir, `run-${i}`);
  const run = new TuiRun({ args: ["--agent", "demo"], env, cwd });
  try {
    await run.waitFor(isReady, 30_000, "the agent to be ready");
    const readyWrites = run.writes.length;
    await sleep(GRACE_MS);
    const graceWrites = run.writes.length - readyWrites;
    const agentPids = processTree(run.pid).filter((p) => p !== run.pid);
    const w0 = run.writes.length;
    const b0 = run.bytes;
    const c0 = cpuSeconds(run.pid);
    const a0 = agentPids.map(cpuSeconds);
    const t0 = run.now();
    await sleep(SECONDS * 1000);
    const elapsed = (run.now() - t0) / 1000;
    const c1 = cpuSeconds(run.pid);
    const a1 = agentPids.map(cpuSeconds);
    const frames = run.writes.length - w0;
    const mem = memKiB(run.pid);
    const agentCpu = a1.reduce((s, x, k) => s + (x - a0[k]), 0);
    return {
      fps: frames / elapsed,
      frames,
      bytes: run.bytes - b0,
      cpuPct: ((c1 - c0) / elapsed) * 100,
      agentCpuPct: (agentCpu / elapsed) * 100,
      graceWrites,
      rssMiB: mem.rss / 1024,
      hwmMiB: mem.hwm / 1024,
      screen: run.lines(),
    };
  } finally {
    await run.stop();
  }
}

const runs = [];
for (let i = 0; i < RUNS; i++) {
  const r = await once(i);
  log(
    `idle: run ${i + 1}/${RUNS}: ${r.frames} writes in ${SECONDS} s, conch CPU ${r.cpuPct.toFixed(2)}%, RSS ${r.rssMiB.toFixed(0)} MiB (peak ${r.hwmMiB.toFixed(0)} MiB)`,
  );
  runs.push(r);
}
const notes = [
  `window: ${SECONDS} s, starting ${GRACE_MS} ms after the session was ready (writes in that grace: ${runs.map((r) => r.graceWrites).join(", ")})`,
];
const busy = runs.find((r) => r.frames > 0);
if (busy)
  notes.push(
    `a run wrote ${busy.frames} times (${busy.bytes} bytes) while idle; its last screen:\n${busy.screen.filter(Boolean).join("\n")}`,
  );
report(args, {
  bench: "idle",
  title: `the TUI idle for ${SECONDS} s after the session is ready`,
  metrics: [
    metric({ name: "frames/s while idle", unit: "frames/s", values: runs.map((r) => r.fps), goal: { op: "<=", value: 0 } }),
    metric({ name: "conch CPU while idle", unit: "%", values: runs.map((r) => r.cpuPct), goal: { op: "<=", value: 2 } }),
    metric({ name: "demo agent CPU while idle", unit: "%", values: runs.map((r) => r.agentCpuPct) }),
    metric({ name: "conch RSS while idle", unit: "MiB", values: runs.map((r) => r.rssMiB), goal: { op: "<=", value: 80 } }),
    metric({ name: "conch peak RSS up to then", unit: "MiB", values: runs.map((r) => r.hwmMiB) }),
  ],
  notes,
});
