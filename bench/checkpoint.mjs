#!/usr/bin/env node
// checkpoint: what a checkpoint adds to a turn's start. conch records the workspace in its shadow
// git repository before each prompt goes out (src/store/checkpoint-store.ts), so that time is added
// to every turn: the figure is `WorkspaceCheckpoints.snapshot()` of the built code on a 5,000-file
// repository (50 folders, a .gitignore'd folder of 2,000 more files beside them), after the
// session's opening snapshot, as a turn finds it: with nothing changed since the last one, and with
// a few files edited, one deleted and one created (what a turn typically leaves). Goal: <= 100 ms,
// median and p95, on the 2 cores. For information: the opening snapshot of the whole project,
// taken in the background when the session opens.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { WorkspaceCheckpoints } from "../dist/store/checkpoint-store.js";
import { log, metric, numOpt, parseArgs, quantile, report } from "./lib/common.mjs";

const args = parseArgs();
const RUNS = numOpt(args, "runs", 40, 8);
const FILES = numOpt(args, "files", 5000, 5000);

function project() {
  const ws = mkdtempSync(path.join(tmpdir(), "conch-bench-ws-"));
  writeFileSync(path.join(ws, ".gitignore"), "node_modules/\n*.log\n");
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(ws, `src${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir);
    // Source-sized files: a few KiB each.
    writeFileSync(path.join(dir, `file${i}.ts`), `export const value${i} = ${i};\n${"// padding line of a source file\n".repeat(60)}`);
  }
  mkdirSync(path.join(ws, "node_modules"));
  for (let i = 0; i < 2000; i++) writeFileSync(path.join(ws, "node_modules", `dep${i}.js`), `module.exports = ${i};\n`);
  return ws;
}

const ws = project();
const state = mkdtempSync(path.join(tmpdir(), "conch-bench-state-"));
const store = new WorkspaceCheckpoints(ws, state);
const timed = async () => {
  const t0 = performance.now();
  const snap = await store.snapshot();
  const ms = performance.now() - t0;
  if ("error" in snap) throw new Error(snap.error);
  return { ms, tree: snap.tree };
};
const opening = await timed();
log(`checkpoint: opening snapshot of ${FILES} files: ${opening.ms.toFixed(0)} ms`);
const unchanged = [];
const changed = [];
let same = true;
for (let r = 0; r < RUNS; r++) {
  const u = await timed();
  unchanged.push(u.ms);
  if (r === 0 && u.tree !== opening.tree) same = false;
  // What a turn leaves: three files edited, one deleted, one created.
  for (let k = 0; k < 3; k++)
    writeFileSync(path.join(ws, `src${(r + k) % 50}`, `file${((r + k) % 50) * 100 + r}.ts`), `// edited in turn ${r}\n`);
  try {
    unlinkSync(path.join(ws, `src${(r + 7) % 50}`, `file${((r + 7) % 50) * 100 + 50 + r}.ts`));
  } catch {
    /* already gone */
  }
  writeFileSync(path.join(ws, `new-${r}.ts`), `export const created = ${r};\n`);
  const c = await timed();
  changed.push(c.ms);
  log(`checkpoint: run ${r + 1}: unchanged ${u.ms.toFixed(1)} ms, changed ${c.ms.toFixed(1)} ms`);
}
rmSync(ws, { recursive: true, force: true });
rmSync(state, { recursive: true, force: true });

const goal = { op: "<=", value: 100 };
report(args, {
  bench: "checkpoint",
  title: `a checkpoint at a turn's start, ${FILES}-file repository (+2,000 ignored), ${RUNS} turns`,
  metrics: [
    metric({ name: "nothing changed since the last checkpoint, median", unit: "ms", values: unchanged, goal }),
    metric({ name: "nothing changed since the last checkpoint, p95", unit: "ms", values: [quantile(unchanged, 0.95)], goal }),
    metric({ name: "5 files changed (3 edited, 1 deleted, 1 new), median", unit: "ms", values: changed, goal }),
    metric({ name: "5 files changed (3 edited, 1 deleted, 1 new), p95", unit: "ms", values: [quantile(changed, 0.95)], goal }),
    metric({ name: "opening snapshot of the whole project (in the background, once per session)", unit: "ms", values: [opening.ms] }),
  ],
  notes: [
    "the time is added before the prompt goes out; with nothing changed no new checkpoint is stored (the same tree)",
    same ? "an unchanged workspace gave the same tree every time" : "an unchanged workspace gave a new tree",
  ],
});
