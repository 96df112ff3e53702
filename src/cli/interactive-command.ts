import { agentCalled } from "../agents/presets.js";
import { exitCodeOf, EXIT, messageOf } from "../errors/conch-error.js";
import type { StartupTerminal } from "../ui/app/startup-terminal.js";
import type { Command } from "./parse-args.js";
import { startControl } from "./control-setup.js";
import { prepareSession } from "./session-setup.js";
import { sessionTable } from "./sessions-command.js";

/**
 * `conch` in a terminal: builds the session (config through the trust question, agent,
 * orchestrator, log) and hands it to the UI. Returns the exit code.
 */
export async function runInteractiveCommand(cmd: Extract<Command, { kind: "interactive" }>, terminal?: StartupTerminal): Promise<number> {
  if (!terminal) {
    process.stderr.write("conch: the interactive UI needs a terminal; for scripts use conch -p\n");
    return EXIT.usage;
  }
  let prepared;
  // A resumed log is read once the App is drawn: it takes keys while a long one is read and folded.
  let shown!: () => void;
  const appShown = new Promise<void>((resolve) => (shown = resolve));
  try {
    prepared = await prepareSession(cmd, cmd.permissions ?? "ask", undefined, (project) => terminal.askTrust(project), appShown);
  } catch (err) {
    terminal.giveBack();
    process.stderr.write(`conch: ${messageOf(err)}\n`);
    return exitCodeOf(err);
  }
  const { orchestrator, recorder, agent, mode, cwd } = prepared;
  const [{ runInteractive }, control] = await Promise.all([import("../ui/app/run-interactive.js"), startControl(orchestrator, recorder)]);
  return runInteractive(
    {
      port: orchestrator,
      open: () => orchestrator.start(mode),
      close: async () => {
        control?.close();
        await orchestrator.shutdown();
        await recorder.close();
      },
      killNow: () => orchestrator.killNow(),
      agentName: agentCalled(agent),
      agentCommand: agent.command,
      cwd,
      prompt: cmd.prompt,
      notify: cmd.notify,
      listSessions: () => sessionTable(cwd),
      shown,
      resuming: prepared.resumed !== undefined,
    },
    terminal,
  );
}
