#!/usr/bin/env node
// screens: the whole terminal after a scripted run (scrollback and screen), cell by cell (character,
// colours, bold, dim, italic, underline, inverse, width), for checking that a change to how conch
// draws leaves what a user sees as it was: run it for two builds and compare the files.
//   node bench/screens.mjs --out /tmp/a                            # this checkout's build
//   node bench/screens.mjs --out /tmp/b --bin ../other/bin/conch.js
//   diff -r /tmp/a /tmp/b
// Runs (`--runs demo-flood,flood-max`): the demo's `flood`, its `markdown` and `thoughts` streamed
// at a model's pace, lib/flood-agent.mjs at 100 and 1,000 chunks/s and at full speed, and
// lib/pane-flood-agent.mjs running 4 MiB of coloured lines in a pane. Each run types its prompt,
// waits for the turn to start (its busy status line) and to end (that line gone, the idle editor
// back), then 1.5 s more and until conch writes nothing for 0.5 s, and writes `<out>/<run>.txt`: one
// line per terminal row, a `{...}` before each change of style, and the cursor at the end. The
// bottom of a run can differ in how many blank rows lie under the last frame: where the terminal
// scrolled to depends on how tall the frame was when the last rows were printed above it, which
// depends on timing (the start build too, e.g. 513-515 rows after the 1,000 chunks/s run).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BENCH, log, parseArgs, projectRun, sleep, tempDir } from "./lib/common.mjs";
import { isBusy, isReady, TuiRun } from "./lib/tui.mjs";

const args = parseArgs();
const out = path.resolve(String(args.opts.out ?? "screens"));
const bin = typeof args.opts.bin === "string" ? path.resolve(args.opts.bin) : undefined;
const flood = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(BENCH, "lib", "flood-agent.mjs"))}`;
const paneFlood = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(BENCH, "lib", "pane-flood-agent.mjs"))}`;
const floodEnv = (extra) => ({ FLOOD_KIND: "words", FLOOD_MARKER: "\nEND\n", ...extra });
const RUNS = {
  "demo-flood": { agent: "demo", prompt: "flood", env: {} },
  "demo-markdown": { agent: "demo", prompt: "markdown", env: { CONCH_DEMO_DELAY_MS: "15" } },
  "demo-thoughts": { agent: "demo", prompt: "thoughts", env: { CONCH_DEMO_DELAY_MS: "15" } },
  "flood-100": { agent: flood, prompt: "go", env: floodEnv({ FLOOD_N: "400", FLOOD_RATE: "100" }) },
  "flood-1000": { agent: flood, prompt: "go", env: floodEnv({ FLOOD_N: "5000", FLOOD_RATE: "1000" }) },
  "flood-max": { agent: flood, prompt: "go", env: floodEnv({ FLOOD_N: "20000" }) },
  // A command flooding a pane (4 MiB of coloured lines): the card printed with its pane's head and tail.
  "pane-flood": { agent: paneFlood, args: ["--permissions", "approve-all"], prompt: "flood", env: { FLOOD_ARGS: "--bytes 4194304" } },
};
const names = typeof args.opts.runs === "string" ? args.opts.runs.split(",") : Object.keys(RUNS);
const dir = tempDir("screens");
mkdirSync(out, { recursive: true });

/** Every row of the terminal, scrollback first, with the style of each cell. */
function cells(run, cwd) {
  const buf = run.term.buffer.active;
  const cell = buf.getNullCell();
  const rows = [];
  for (let y = 0; y < buf.length; y++) {
    const line = buf.getLine(y);
    let row = "";
    let style = "";
    for (let x = 0; x < run.cols; x++) {
      line.getCell(x, cell);
      const flags = [cell.isBold() && "b", cell.isDim() && "d", cell.isItalic() && "i", cell.isUnderline() && "u", cell.isInverse() && "r"];
      const now = `${cell.getFgColorMode()}:${cell.getFgColor()}/${cell.getBgColorMode()}:${cell.getBgColor()}${flags.filter(Boolean).join("")}${cell.getWidth()}`;
      if (now !== style) row += `{${now}}`;
      style = now;
      row += cell.getChars() || " ";
    }
    rows.push(row + (line.isWrapped ? " [wrapped]" : ""));
  }
  const text = rows.join("\n").replaceAll(cwd, "<cwd>");
  return `${text}\ncursor ${buf.cursorX},${buf.cursorY}; ${buf.length} rows\n`;
}

/** Waits until conch has written nothing for `ms` (what it prints once a turn settles is in), at most `limit`. */
async function quiet(run, ms, limit) {
  const end = run.now() + limit;
  while (run.now() < end && run.now() - (run.writes.at(-1) ?? 0) < ms) await sleep(50);
}

for (const name of names) {
  const spec = RUNS[name];
  if (!spec) throw new Error(`no run ${name}: ${Object.keys(RUNS).join(", ")}`);
  const { cwd, env } = projectRun(dir, name, spec.env);
  const run = new TuiRun({
    args: ["--agent", spec.agent, ...(spec.args ?? [])],
    env,
    cwd,
    scrollback: 100_000,
    ...(bin ? { commandArgs: [bin, "--agent", spec.agent, ...(spec.args ?? [])] } : {}),
  });
  try {
    await run.waitFor(isReady, 30_000, "the session to be ready");
    run.write(spec.prompt);
    await run.waitFor((lines) => lines.some((l) => l.includes(`› ${spec.prompt}`)), 5000, "the typed prompt");
    await sleep(100);
    run.write("\r");
    // Not "the idle placeholder gone, then back": the typed prompt hides it already, and the editor
    // Enter empties shows it again before the turn begins. A turn is its busy status line, seen and
    // then gone with the idle editor back.
    await run.waitFor(isBusy, 30_000, "the turn to start");
    await run.waitFor((lines) => isReady(lines) && !isBusy(lines), 300_000, "the turn to end");
    await sleep(1500);
    await quiet(run, 500, 15_000);
    await new Promise((resolve) => run.term.write("", resolve));
    writeFileSync(path.join(out, `${name}.txt`), cells(run, cwd));
    log(`screens: ${name}: ${run.term.buffer.active.length} rows`);
  } finally {
    await run.stop();
  }
}
