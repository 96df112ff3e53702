import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { PROCESS_TAG_VAR } from "./process-tree.js";

/** The program and argv node-pty is asked to run. */
export interface PlannedCommand {
  file: string;
  args: string[];
  /** True when the command line goes through `/bin/sh -c`. */
  viaShell: boolean;
}

/**
 * Decides how a `terminal/create` command runs. Agents send either an argv (`command` plus `args`)
 * or, with no args, a whole shell line such as `"ls -la | head"`. Spawning that directly would look
 * for a program literally named "ls -la | head", so a command with spaces and no args runs through
 * `/bin/sh -c`. Everything else is spawned directly, so arguments reach the program unmangled by
 * shell quoting.
 */
export function planCommand(command: string, args: readonly string[] | undefined): PlannedCommand {
  if ((args === undefined || args.length === 0) && /\s/.test(command.trim())) {
    return { file: "/bin/sh", args: ["-c", command], viaShell: true };
  }
  return { file: command, args: [...(args ?? [])], viaShell: false };
}

/**
 * Where `file` would be found the way execvp looks: a path with a slash is taken relative to `cwd`,
 * a bare name is searched in `searchPath` (empty entries mean `cwd`). Null when there is no
 * executable file. Checked before spawning because node-pty reports a missing program only as
 * "execvp(3) failed" output and exit code 1.
 */
export function findExecutable(file: string, searchPath: string | undefined, cwd: string): string | null {
  if (file === "") return null;
  if (file.includes("/")) {
    const candidate = path.resolve(cwd, file);
    return isExecutableFile(candidate) ? candidate : null;
  }
  for (const dir of (searchPath ?? "").split(path.delimiter)) {
    const candidate = path.resolve(cwd, dir, file);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function isExecutableFile(candidate: string): boolean {
  try {
    accessSync(candidate, constants.X_OK);
    return statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/** conch's environment plus the agent's variables, with what the PTY itself defines taken out, and the command's tag. */
export function commandEnvironment(
  extra: Array<{ name: string; value: string }> | undefined,
  tag: string,
): Record<string, string> & { TERM: string } {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  // The PTY has its own size; inherited values would contradict it.
  delete env.COLUMNS;
  delete env.LINES;
  env.TERM = "xterm-256color";
  for (const variable of extra ?? []) env[variable.name] = variable.value;
  // Set last: the agent cannot take a command out of conch's reach by naming the variable.
  env[PROCESS_TAG_VAR] = tag;
  return { ...env, TERM: env.TERM };
}
