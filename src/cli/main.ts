import { EXIT } from "../print/print-result.js";
import { parseCommandLine, UsageError, USAGE, type Command } from "./parse-args.js";
import { agentLabel, InstantPrompt } from "../ui/instant-prompt.js";
import { speaksKittyKeyboard, TerminalInput } from "../ui/input/terminal-input.js";
import { readStdin } from "./read-stdin.js";
import { CONCH_VERSION } from "../acp/conch-version.js";

/** conch's entry point: argv in, exit code out. */
export async function main(argv: string[]): Promise<number> {
  let cmd: Command;
  try {
    cmd = parseCommandLine(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`conch: ${err.message}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  switch (cmd.kind) {
    case "help":
      process.stdout.write(`conch ${CONCH_VERSION}: a terminal client for the Agent Client Protocol\n\n${USAGE}\n`);
      return 0;
    case "version":
      process.stdout.write(`${CONCH_VERSION}\n`);
      return 0;
    case "print":
      return runPrintCommand(cmd);
    case "interactive": {
      // Before anything loads: the terminal goes raw (every key typed from now on is kept for the
      // editor) and a prompt shows; the agent and the UI start behind it.
      let terminal;
      if (process.stdin.isTTY && process.stdout.isTTY) {
        const input = TerminalInput.open(process.stdin, process.stdout, { askKitty: speaksKittyKeyboard(process.env) });
        const prompt = new InstantPrompt(process.stdout, agentLabel(cmd.agent), cmd.cwd);
        input.onKeysHeld((reads) => prompt.show(reads));
        terminal = { input, prompt };
      }
      const { runInteractive } = await import("../ui/run-interactive.js");
      return runInteractive(cmd, terminal);
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

async function runPrintCommand(cmd: Extract<Command, { kind: "print" }>): Promise<number> {
  const [{ loadConfig }, { runPrint }] = await Promise.all([import("../agents/config-file.js"), import("../print/run-print.js")]);
  let config;
  try {
    config = loadConfig(cmd.cwd, process.env, { trust: cmd.trust });
  } catch (err) {
    process.stderr.write(`conch: ${(err as Error).message}\n`);
    return EXIT.usage;
  }
  const piped = process.stdin.isTTY ? undefined : await readStdin(process.stdin);
  const prompt = [cmd.prompt, piped?.trim() ? piped : undefined].filter(Boolean).join("\n\n");
  if (!prompt) {
    process.stderr.write(`conch: -p needs a prompt (as an argument or on stdin)\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  const policy = cmd.permissions ?? config.permissions ?? (process.stdin.isTTY ? "ask" : "deny");
  if (policy === "ask") {
    process.stderr.write("conch: print mode cannot ask for permission; using --permissions deny (pass --permissions to choose)\n");
  }
  const code = await runPrint(
    { ...cmd, prompt, policy: policy === "ask" ? "deny" : policy },
    {
      out: (t) => process.stdout.write(t),
      rawOut: !process.stdout.isTTY,
      err: (t) => process.stderr.write(t),
      onInterrupt: (handler) => {
        // Every signal that would end conch ends the run instead: the agent is stopped, never orphaned.
        const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
        for (const signal of signals) process.on(signal, handler);
        return () => {
          for (const signal of signals) process.off(signal, handler);
        };
      },
    },
  );
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  return code;
}
