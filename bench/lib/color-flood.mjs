#!/usr/bin/env node
// Prints ANSI-coloured log lines as fast as stdout takes them: `--bytes N` (total, default 10 MiB)
// or `--seconds S` (keeps printing for S seconds). Lines look like a test runner's or a build's.
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : def;
};
const seconds = opt("seconds", 0);
// --stamp FILE: the epoch time (ms) of the first write, so a reader can time the flood from its first byte.
const stampAt = argv.indexOf("--stamp");
if (stampAt >= 0) writeFileSync(argv[stampAt + 1], String(performance.timeOrigin + performance.now()));
const total = seconds ? Infinity : opt("bytes", 10 * 1024 * 1024);
const levels = ["\x1b[32m INFO\x1b[0m", "\x1b[33m WARN\x1b[0m", "\x1b[1;31mERROR\x1b[0m", "\x1b[36mDEBUG\x1b[0m"];
const words = ["compiling", "module", "src/index.ts", "resolved", "in", "cache", "hit", "tests", "passed", "bundle", "chunk", "emitted"];

let n = 0;
function line() {
  n++;
  const w = [];
  for (let i = 0; i < 6 + (n % 7); i++) w.push(words[(n * 7 + i * 3) % words.length]);
  return `\x1b[2m${String(n).padStart(7, "0")}\x1b[0m ${levels[n % 4]} \x1b[1m${w[0]}\x1b[0m ${w.slice(1).join(" ")} \x1b[35m${(n * 37) % 1000}ms\x1b[0m\n`;
}

const end = Date.now() + seconds * 1000;
let written = 0;
function pump() {
  while (written < total && (!seconds || Date.now() < end)) {
    let block = "";
    while (block.length < 64 * 1024) block += line();
    if (Number.isFinite(total) && written + block.length > total) block = block.slice(0, total - written);
    written += Buffer.byteLength(block);
    if (!process.stdout.write(block)) {
      process.stdout.once("drain", pump);
      return;
    }
  }
  process.stdout.write("\x1b[0m\n");
}
pump();
