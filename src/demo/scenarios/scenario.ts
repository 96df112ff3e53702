import type { StopReason } from "@agentclientprotocol/sdk";
import type { Turn } from "../turn.js";

/** One scripted behaviour of the demo agent, chosen by a keyword in the prompt. */
export interface Scenario {
  /** The name shown in help and in the tour. */
  readonly name: string;
  /** Words that pick this scenario, matched case-insensitively as whole words or as `/word`. */
  readonly keywords: readonly string[];
  /** One line for the help text: what a person will see. */
  readonly summary: string;
  /**
   * Plays the scenario. `args` is what followed the slash command (`/edit notes.md`
   * gives `notes.md`). Returning nothing means `end_turn`; a cancelled turn ends
   * `cancelled` whatever is returned.
   */
  run(turn: Turn, args: string): Promise<StopReason | void>;
}
