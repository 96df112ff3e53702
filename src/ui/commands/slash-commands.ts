import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { CONCH_COMMANDS, isConchCommand } from "./conch-commands.js";

/** One entry of the `/` menu: conch's own command, or one the agent announced. */
export interface SlashCommand {
  name: string;
  description: string;
  /** What the arguments are, when the command takes any. */
  hint?: string;
  source: "conch" | "agent";
}

/** conch's commands, then the agent's (an agent command named like one of conch's is hidden by it). */
export function allSlashCommands(agentCommands: readonly AvailableCommand[]): SlashCommand[] {
  const conch = CONCH_COMMANDS.map(({ name, description, hint }): SlashCommand => ({ name, description, hint, source: "conch" }));
  const agent = agentCommands
    .filter((c) => !isConchCommand(c.name))
    .map((c): SlashCommand => ({ name: c.name, description: c.description, hint: c.input?.hint ?? undefined, source: "agent" }));
  return [...conch, ...agent];
}

/** The command name being typed: the text starts with `/` and the cursor is still in its first word. */
export function slashQuery(text: string, cursor: number): string | null {
  if (!text.startsWith("/")) return null;
  const word = /^\/(\S*)/.exec(text)![1];
  if (cursor > word.length + 1) return null;
  return word;
}

/** The menu for a partial name: prefix matches first (in list order), then names containing it. */
export function slashSuggestions(query: string, commands: readonly SlashCommand[], limit = 8): SlashCommand[] {
  const q = query.toLowerCase();
  const prefix = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const inner = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...prefix, ...inner].slice(0, limit);
}

/** The text after choosing `command` in the menu: the name replaces the first word; arguments typed after it stay. */
export function completeSlash(text: string, command: SlashCommand): { text: string; cursor: number } {
  const rest = text.replace(/^\/\S*/, "").replace(/^\s+/, "");
  const head = `/${command.name} `;
  return { text: head + rest, cursor: head.length };
}
