// Reading processes through /proc: CPU ticks, resident memory, process trees, and a runner that
// measures a command's whole process tree (wall time, CPU of every descendant, peak memory).
import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

let clkTck = 100;
try {
  clkTck = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
} catch {
  /* 100 on every Linux we run on */
}
export const CLK_TCK = clkTck;

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  return text.slice(text.lastIndexOf(")") + 2).split(" ");
}

/** User+system CPU seconds the process itself has used (not its children). */
export function cpuSeconds(pid) {
  try {
    const f = statFields(pid);
    // After ")": state(0) ppid(1) ... utime(11) stime(12)
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch {
    return NaN;
  }
}

/** User+system CPU seconds of a process's main thread alone (its worker threads left out). */
export function mainThreadCpuSeconds(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
    const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch {
    return NaN;
  }
}

/** VmRSS and VmHWM (peak RSS) in KiB, or undefined once the process is gone. */
export function memKiB(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    const get = (k) => Number((text.match(new RegExp(`^${k}:\\s+(\\d+)`, "m")) ?? [])[1] ?? NaN);
    return { rss: get("VmRSS"), hwm: get("VmHWM") };
  } catch {
    return undefined;
  }
}

/** pid → ppid for every process. */
function parentMap() {
  const map = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      map.set(Number(name), Number(statFields(name)[1]));
    } catch {
      /* gone */
    }
  }
  return map;
}

/** The pid and every descendant of it that is alive now. */
export function processTree(root) {
  const parents = parentMap();
  const tree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (!tree.has(pid) && tree.has(ppid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return [...tree].filter((p) => parents.has(p));
}

/**
 * Samples a process tree's memory: the peak of the summed RSS of all its processes, and the
 * largest peak RSS (VmHWM) of any one of them.
 */
export class TreeSampler {
  constructor(root, intervalMs = 25, { excludeRoot = false } = {}) {
    this.root = root;
    this.excludeRoot = excludeRoot;
    this.peakTreeKiB = 0;
    this.peakProcKiB = 0;
    this.pids = new Set();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.sample();
  }
  sample() {
    let sum = 0;
    for (const pid of processTree(this.root)) {
      if (this.excludeRoot && pid === this.root) continue;
      const m = memKiB(pid);
      if (!m) continue;
      this.pids.add(pid);
      if (Number.isFinite(m.rss)) sum += m.rss;
      if (Number.isFinite(m.hwm)) this.peakProcKiB = Math.max(this.peakProcKiB, m.hwm);
    }
    this.peakTreeKiB = Math.max(this.peakTreeKiB, sum);
  }
  stop() {
    clearInterval(this.timer);
  }
}

const REAPER = path.join(path.dirname(fileURLToPath(import.meta.url)), "reap.pl");

/**
 * Runs a command and measures its whole process tree: wall time from fork to the command's exit,
 * user+system CPU of the command and of every process it started (the runner is a child
 * subreaper, so even processes orphaned by the command are waited for and counted), the peak of
 * the tree's summed RSS and the largest single-process peak RSS. Processes the command leaves
 * running are stopped after `graceMs` and reported as `leftovers`.
 */
export function runMeasured(command, args, { cwd, env, graceMs = 3000, timeoutMs = 120_000, stdin = "ignore", onStderr } = {}) {
  return new Promise((resolve, reject) => {
    const outFile = path.join(tmpdir(), `.conch-bench-reap-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
    const child = spawn("perl", [REAPER, outFile, String(graceMs / 1000), command, ...args], { cwd, env, stdio: [stdin, "pipe", "pipe"] });
    const sampler = new TreeSampler(child.pid, 25, { excludeRoot: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => {
      stderr += d;
      onStderr?.(d);
    });
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(timer);
      sampler.stop();
      let r;
      try {
        r = JSON.parse(readFileSync(outFile, "utf8"));
      } catch (err) {
        reject(new Error(`the measuring runner wrote no result (${err.message}); stderr: ${stderr.slice(-500)}`));
        return;
      } finally {
        rmSync(outFile, { force: true });
      }
      resolve({
        wallMs: r.wall * 1000,
        cpuS: r.cuser + r.csys,
        userS: r.cuser,
        sysS: r.csys,
        code: r.code,
        signal: r.signal,
        subreaper: r.subreaper,
        leftovers: r.leftovers,
        peakTreeMiB: sampler.peakTreeKiB / 1024,
        peakProcMiB: sampler.peakProcKiB / 1024,
        stdout,
        stderr,
      });
    });
  });
}

/** Busy CPU-seconds of the whole machine so far (all cores), from /proc/stat. */
export function machineBusySeconds() {
  const f = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return (total - f[3] - (f[4] ?? 0)) / CLK_TCK;
}
