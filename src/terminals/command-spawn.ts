import type { IPty } from "@lydell/node-pty";
import { commandEnvironment, findExecutable, planCommand } from "./command-line.js";
import { newProcessTag } from "./process-tree.js";
import { ptyModule } from "./pty-module.js";
import { readAsBytes } from "./pty-bytes.js";

/** A command ready to start: its program found, its environment made. */
export interface PreparedCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** The tag in its environment that every process it starts inherits (see `PROCESS_TAG_VAR`). */
  tag: string;
}

/** Plans the command in `cwd`; throws an Error for the agent when its program does not exist. */
export function prepareCommand(
  command: string,
  args: string[] | undefined,
  env: Array<{ name: string; value: string }> | undefined,
  cwd: string,
): PreparedCommand {
  const planned = planCommand(command, args);
  const tag = newProcessTag();
  const environment = commandEnvironment(env, tag);
  if (findExecutable(planned.file, environment.PATH, cwd) === null) throw new Error(`Command not found: ${planned.file}`);
  return { file: planned.file, args: planned.args, env: environment, cwd, tag };
}

/** Starts a prepared command in a PTY of this size that reads bytes (see `readAsBytes`); throws an Error for the agent when it cannot. */
export function spawnInPty(command: PreparedCommand, cols: number, rows: number): IPty {
  let pty: IPty;
  try {
    // node-pty is native and needed only once a command runs: loaded then, from node_modules.
    pty = ptyModule().module.spawn(command.file, command.args, {
      name: command.env.TERM,
      cols,
      rows,
      cwd: command.cwd,
      env: command.env,
      encoding: "utf8",
    });
  } catch (error) {
    throw new Error(`Could not start ${command.file}: ${(error as Error).message}`);
  }
  readAsBytes(pty);
  return pty;
}

/** The PTY's slave device; node-pty's Unix terminal has it, though its typings do not say so. */
export function ptsNameOf(pty: IPty): string | undefined {
  const name: unknown = (pty as IPty & { ptsName?: unknown }).ptsName;
  return typeof name === "string" && name !== "" ? name : undefined;
}
