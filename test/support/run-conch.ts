import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";

export const ROOT = path.resolve(__dirname, "../..");
export const CONCH = path.join(ROOT, "bin/conch.js");
export const REPLAY = path.join(ROOT, "dist/demo/trace-replay/main.js");

/** A fresh temp dir. */
export function tempDir(prefix = "conch-test-"): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Runs the built CLI as a user would, with its own state dir; never throws on a non-zero exit. */
export async function runConch(
  args: string[],
  opts: { input?: string; env?: Record<string, string>; cwd?: string; stateDir?: string; timeoutMs?: number } = {},
) {
  const stateDir = opts.stateDir ?? tempDir("conch-state-");
  const r = await execa(process.execPath, [CONCH, ...args], {
    cwd: opts.cwd ?? tempDir("conch-cwd-"),
    input: opts.input ?? "",
    reject: false,
    timeout: opts.timeoutMs ?? 60_000,
    env: { CONCH_STATE_DIR: stateDir, CONCH_DEMO_DELAY_MS: "0", CONCH_DEMO_BACKGROUND_MS: "600", NO_COLOR: "1", ...opts.env },
  });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr), stateDir };
}

/** The `--agent` value that replays a recorded trace. */
export function replayAgent(trace: string, extra = ""): string {
  return `${process.execPath} ${REPLAY} ${path.resolve(ROOT, "../shared/traces", trace)} --speed 4 ${extra}`.trim();
}
