import type { ProjectFile, TrustChoice } from "../../agents/workspace-trust.js";
import { agentLabel, InstantPrompt } from "./instant-prompt.js";
import { speaksKittyKeyboard, TerminalInput } from "../tty/terminal-input.js";
import { askProjectTrust } from "./trust-prompt.js";

/**
 * The terminal as `main` takes it in its first milliseconds: raw, every key kept for the editor,
 * and a prompt that echoes them, while the agent and the UI start behind it.
 */
export class StartupTerminal {
  private constructor(
    private current: { input: TerminalInput; prompt: InstantPrompt },
    private readonly label: string,
    private readonly cwd: string,
  ) {}

  /** Takes the process's terminal; `agent` and `cwd` are what the prompt shows until the UI is up. */
  static open(agent: string | undefined, cwd: string): StartupTerminal {
    return new StartupTerminal(StartupTerminal.take(agentLabel(agent), cwd), agentLabel(agent), cwd);
  }

  private static take(label: string, cwd: string): { input: TerminalInput; prompt: InstantPrompt } {
    const input = TerminalInput.open(process.stdin, process.stdout, { askKitty: speaksKittyKeyboard(process.env) });
    const prompt = new InstantPrompt(process.stdout, label, cwd);
    input.onKeysHeld((reads) => prompt.take(reads));
    return { input, prompt };
  }

  /** conch's one reader of the terminal (the same one after a trust question took it back). */
  get input(): TerminalInput {
    return this.current.input;
  }

  /** The instant prompt, erased when the UI draws. */
  get prompt(): InstantPrompt {
    return this.current.prompt;
  }

  /** Gives the terminal back as it was: the prompt erased, raw mode off. */
  giveBack(): void {
    this.current.prompt.erase();
    this.current.input.close();
  }

  /**
   * Asks whether to trust a project's `.conch.json` as a plain line prompt: keys typed while conch
   * was starting are dropped with the kept ones, so they cannot answer it. Then the terminal is taken again.
   */
  async askTrust(project: ProjectFile): Promise<TrustChoice> {
    this.giveBack();
    const choice = await askProjectTrust(project);
    this.current = StartupTerminal.take(this.label, this.cwd);
    return choice;
  }
}
