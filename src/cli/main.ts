import { ConchError, EXIT } from "../errors/conch-error.js";
import { parseCommandLine, UsageError, USAGE, type Command } from "./parse-args.js";
import { StartupTerminal } from "../ui/app/startup-terminal.js";
import { CONCH_VERSION } from "../conch-version.js";
import { afterInput } from "../ui/tty/after-input.js";

/**
 * The interactive session's modules, in parts of ~40-120 KB of bundle each (zod, the SDK and
 * execa are ~385, ~115 and ~240 KB): each is compiled and run in its own task. What is left after
 * them (the orchestrator, the store, the terminals, ~300 KB) loads with `interactive-command`.
 */
const SESSION_PARTS: (() => Promise<unknown>)[] = [
  () => import("zod"),
  () => import("@agentclientprotocol/sdk"),
  () => import("execa"),
  () => import("../session/reduce.js"),
  () => import("../agents/config-file.js"),
  () => import("../orchestrator/agent/connect-agent.js"),
  () => import("../orchestrator/terminals/terminal-service.js"),
];

/** conch's entry point: argv in, exit code out. A failure a user can meet ends with its message and its exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (err) {
    if (!(err instanceof ConchError)) throw err;
    process.stderr.write(`conch: ${err.message}\n`);
    return err.exitCode;
  }
}

async function run(argv: string[]): Promise<number> {
  let cmd: Command;
  try {
    cmd = parseCommandLine(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    // One line: the whole help would bury what was wrong.
    process.stderr.write(`conch: ${err.message} (see conch --help)\n`);
    return EXIT.usage;
  }
  switch (cmd.kind) {
    case "help":
      process.stdout.write(`conch ${CONCH_VERSION}: a terminal client for the Agent Client Protocol\n\n${USAGE}\n`);
      return EXIT.ok;
    case "version":
      process.stdout.write(`${CONCH_VERSION}\n`);
      return EXIT.ok;
    case "print": {
      const { runPrintCommand } = await import("./print-command.js");
      return runPrintCommand(cmd);
    }
    case "interactive": {
      // Before anything loads: the terminal goes raw (every key typed from now on is kept for the
      // editor) and a prompt shows; the agent and the UI start behind it.
      const terminal = process.stdin.isTTY && process.stdout.isTTY ? StartupTerminal.open(cmd.agent, cmd.cwd) : undefined;
      // The session's modules (~1.2 MB) would load in one long task, and a key typed meanwhile
      // would wait for all of it: they load a part a task (SESSION_PARTS), and keys are read between.
      if (terminal) {
        // A key typed while node started is read in the event loop's next turn: before zod's compile, not after.
        await afterInput();
        for (const part of SESSION_PARTS) {
          await part();
          await afterInput();
        }
      }
      const { runInteractiveCommand } = await import("./interactive-command.js");
      return runInteractiveCommand(cmd, terminal);
    }
    case "sessions": {
      const { runSessionsCommand } = await import("./sessions-command.js");
      return runSessionsCommand(cmd);
    }
    case "agents": {
      const { runAgentsCommand } = await import("./agents-command.js");
      return runAgentsCommand(cmd);
    }
    case "export": {
      const { runExportCommand } = await import("./export-command.js");
      return runExportCommand(cmd);
    }
    case "undo": {
      const { runUndoCommand } = await import("./undo-command.js");
      return runUndoCommand(cmd);
    }
    case "attach": {
      const { runAttachCommand } = await import("./attach-command.js");
      return runAttachCommand(cmd);
    }
    case "doctor": {
      const { runDoctor } = await import("./doctor-command.js");
      return runDoctor(cmd);
    }
  }
}
