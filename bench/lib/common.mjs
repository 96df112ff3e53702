// Shared helpers of conch's benchmarks: argument parsing, statistics, goals, tables, temp dirs.
// Every bench prints a small table, or with --json one JSON object (progress goes to stderr).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const DIST = path.join(ROOT, "dist");
export const BIN = path.join(ROOT, "bin", "conch.js");
export const DEMO = path.join(DIST, "demo", "main.js");
export const BENCH = path.join(ROOT, "bench");

/** `--json`, `--quick`, `--runs N`, and `--name value` pairs. */
export function parseArgs(argv = process.argv.slice(2)) {
  const args = { json: false, quick: false, opts: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--json") args.json = true;
    else if (a === "--quick") args.quick = true;
    else if (a.startsWith("--")) {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith("--")) {
        args.opts[a.slice(2)] = next;
        i++;
      } else args.opts[a.slice(2)] = true;
    }
  }
  return args;
}

/** A numeric option with a default (and a smaller default for --quick). */
export function numOpt(args, name, full, quick = full) {
  const v = args.opts[name];
  if (v !== undefined && v !== true) return Number(v);
  return args.quick ? quick : full;
}

/** Progress for a person; never on stdout, so --json stays one object. */
export function log(...parts) {
  process.stderr.write(`${parts.join(" ")}\n`);
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The value at quantile q (0..1), nearest-rank. */
export function quantile(values, q) {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

export function summarize(values) {
  const v = values.filter((x) => typeof x === "number" && Number.isFinite(x));
  return {
    median: median(v),
    min: v.length ? Math.min(...v) : NaN,
    max: v.length ? Math.max(...v) : NaN,
    n: v.length,
    values: v.map(round),
  };
}

export function round(x, digits = 3) {
  if (typeof x !== "number" || !Number.isFinite(x)) return x;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * One measured figure. `values` are the runs (median, min and max are derived); `goal` is
 * `{ op: "<=" | ">=", value }` in the same unit, or absent for figures reported for information.
 * `skip` carries the reason a figure could not be measured.
 */
export function metric({ name, unit, values, goal, note, skip }) {
  if (skip) return { name, unit, goal: goal ?? null, status: "skipped", note: skip };
  const s = summarize(values);
  let status = "info";
  if (goal) {
    if (!Number.isFinite(s.median)) status = "short";
    else status = (goal.op === "<=" ? s.median <= goal.value : s.median >= goal.value) ? "pass" : "short";
  }
  const m = {
    name,
    unit,
    median: round(s.median),
    min: round(s.min),
    max: round(s.max),
    n: s.n,
    values: s.values,
    goal: goal ?? null,
    status,
  };
  if (goal && status === "short" && Number.isFinite(s.median)) {
    m.shortBy =
      goal.op === "<="
        ? `${fmt(s.median / goal.value)}x the goal (${fmt(s.median - goal.value)} ${unit} over)`
        : `${fmt((s.median / goal.value) * 100)}% of the goal (${fmt(goal.value - s.median)} ${unit} under)`;
  }
  if (note) m.note = note;
  return m;
}

export function goalText(goal, unit) {
  return goal ? `${goal.op} ${fmt(goal.value)} ${unit}` : "-";
}

export function fmt(x) {
  if (typeof x !== "number" || !Number.isFinite(x)) return String(x);
  if (x === 0) return "0";
  const a = Math.abs(x);
  if (a >= 1e6) return x.toExponential(2);
  if (a >= 1000) return Math.round(x).toLocaleString("en-US");
  if (a >= 100) return x.toFixed(0);
  if (a >= 10) return x.toFixed(1);
  if (a >= 1) return x.toFixed(2);
  return x.toFixed(3);
}

export function figureText(m) {
  if (m.status === "skipped") return `skipped: ${m.note}`;
  if (m.n === 1) return `${fmt(m.median)} ${m.unit}`;
  return `${fmt(m.median)} ${m.unit} (${fmt(m.min)}–${fmt(m.max)}, n=${m.n})`;
}

/** A plain text table; columns padded to their widest cell. */
export function table(rows, header) {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => String(r[i] ?? "").length)));
  const line = (r) =>
    r
      .map((c, i) => String(c ?? "").padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** The machine a result was taken on, with the load at the time (other work on 2 cores moves figures). */
export function machine() {
  return {
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    loadavg: loadavg().map((x) => round(x, 2)),
    platform: `${process.platform}-${process.arch}`,
  };
}

/** Prints the bench's result: a table, or with --json one JSON object on stdout. */
export function report(args, result) {
  const out = { bench: result.bench, at: new Date().toISOString(), machine: machine(), ...result };
  if (args.json) {
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return out;
  }
  const rows = result.metrics.map((m) => [m.name, goalText(m.goal, m.unit), figureText(m), m.status === "info" ? "" : m.status]);
  process.stdout.write(`\n${result.bench}: ${result.title ?? ""}\n${table(rows, ["metric", "goal", "median (min–max)", "result"])}\n`);
  for (const n of result.notes ?? []) process.stdout.write(`  note: ${n}\n`);
  for (const m of result.metrics) if (m.shortBy) process.stdout.write(`  short: ${m.name}: ${m.shortBy}\n`);
  return out;
}

/** A private temp dir, removed at exit unless BENCH_KEEP=1. */
export function tempDir(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), `conch-bench-${prefix}-`));
  if (process.env.BENCH_KEEP !== "1") process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Waits for files of the build (the TUI is being finished by someone else: its dist/ may appear
 * later). Resolves false after `timeoutMs` if they never did.
 */
export async function waitForBuild(files, timeoutMs = 0) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (files.every((f) => existsSync(path.join(ROOT, f)))) return true;
    if (Date.now() >= deadline) return false;
    await sleep(1000);
  }
}

/** Whether dist/ is older than the newest file under src/ (a stale build measures old code). */
export function staleBuild() {
  try {
    const built = statSync(path.join(DIST, "cli", "main.js")).mtimeMs;
    return built < newestMtime(path.join(ROOT, "src"));
  } catch {
    return true;
  }
}

function newestMtime(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** An environment for conch and the demo agent, isolated from the user's state. */
export function isolatedEnv(dir, extra = {}) {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith("CONCH_")) delete env[k];
  delete env.NO_COLOR;
  delete env.NODE_ENV; // conch chooses React's production build itself unless told otherwise
  return {
    ...env,
    CONCH_STATE_DIR: path.join(dir, "state"),
    CONCH_DEMO_STATE: path.join(dir, "demo-state"),
    CONCH_DEMO_DELAY_MS: "0",
    TERM: "xterm-256color",
    COLORTERM: "truecolor",
    ...extra,
  };
}

/**
 * A run's project folder (`cwd`) and its isolated env, conch's state dir beside the project as a
 * user's is, never inside it: a build that checkpoints its own state dir would time recording its logs.
 */
export function projectRun(parent, name, extra = {}) {
  const root = path.join(parent, name);
  const cwd = path.join(root, "work");
  mkdirSync(cwd, { recursive: true });
  return { cwd, env: isolatedEnv(root, extra) };
}

/** Share of all cores busy over `ms` (from /proc/stat), 0..100: other work on the machine skews every figure. */
export async function machineBusy(ms = 1000) {
  const read = () => {
    const f = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = f[3] + (f[4] ?? 0);
    return { idle, total: f.reduce((a, b) => a + b, 0) };
  };
  const a = read();
  await sleep(ms);
  const b = read();
  const total = b.total - a.total;
  return total > 0 ? round((1 - (b.idle - a.idle) / total) * 100, 1) : 0;
}
