import { fileURLToPath } from "node:url";

/** How to start the replay agent as a child process. */
export interface SpawnReplayOptions {
  process?: number;
  /** `Infinity` becomes `--speed inf`. */
  speed?: number;
  project?: string;
  home?: string;
  tmpdir?: string;
  /** Pass `--causal`. */
  causal?: boolean;
  /** The built entry point; default: `dist/demo/trace-replay/main.js` of this checkout. */
  mainPath?: string;
  /** The node binary; default: the one running now. */
  nodePath?: string;
}

/** The built entry point (`dist/demo/trace-replay/main.js`), whether this module runs from src/ or dist/. */
export function replayMainPath(): string {
  const here = fileURLToPath(new URL("./main.js", import.meta.url));
  // Under vitest this module is src/…/spawn.ts; the runnable entry is always the compiled one.
  return here.replace(/([/\\])src([/\\]demo[/\\]trace-replay[/\\]main\.js)$/, "$1dist$2");
}

/** `{command, args}` that spawn the replay agent for `tracePath` (needs a build: `tsc` → dist/). */
export function spawnReplayAgentCommand(tracePath: string, opts: SpawnReplayOptions = {}): { command: string; args: string[] } {
  const args = [opts.mainPath ?? replayMainPath(), tracePath];
  if (opts.process !== undefined) args.push("--process", String(opts.process));
  if (opts.speed !== undefined) args.push("--speed", Number.isFinite(opts.speed) ? String(opts.speed) : "inf");
  if (opts.project !== undefined) args.push("--project", opts.project);
  if (opts.home !== undefined) args.push("--home", opts.home);
  if (opts.tmpdir !== undefined) args.push("--tmpdir", opts.tmpdir);
  if (opts.causal) args.push("--causal");
  return { command: opts.nodePath ?? process.execPath, args };
}
