import type { AvailableCommand } from "@agentclientprotocol/sdk";

/** One entry of the `/` menu: conch's own command, or one the agent announced. */
export interface SlashCommand {
  name: string;
  description: string;
  /** What the arguments are, when the command takes any. */
  hint?: string;
  source: "conch" | "agent";
}

/** conch's own commands; they run here and never reach the agent. */
export const CONCH_COMMANDS: readonly SlashCommand[] = [
  { name: "help", description: "keys and commands", source: "conch" },
  { name: "clear", description: "clear the screen and start a new session (the old one is closed and kept)", source: "conch" },
  { name: "fork", description: "go on in a new session that starts from this one's history", source: "conch" },
  { name: "mode", description: "show or switch the agent's mode", hint: "[mode id]", source: "conch" },
  { name: "model", description: "show or switch the model, and its settings", hint: "[model id]", source: "conch" },
  {
    name: "config",
    description: "show or set a session option (on/off/toggle for a switch)",
    hint: "<option id> <value>",
    source: "conch",
  },
  { name: "sessions", description: "list saved sessions (resume one with conch -r <id>)", source: "conch" },
  { name: "cancel", description: "cancel the running turn", source: "conch" },
  {
    name: "undo",
    description: "put back the files the agent wrote in the last turn (or turn N), after showing the diff; list: the turns with edits",
    hint: "[turn | list]",
    source: "conch",
  },
  { name: "expand", description: "show tool output and thoughts in full (toggle)", source: "conch" },
  {
    name: "search",
    description: "find text in this session: prompts, answers, tool titles, commands, output (ctrl-r)",
    hint: "[text]",
    source: "conch",
  },
  { name: "paste-image", description: "attach the image on the clipboard to the next message (alt-v)", source: "conch" },
  {
    name: "export",
    description: "save the transcript as Markdown (default: conch-<id>-<date>.md here)",
    hint: "[file] [--force]",
    source: "conch",
  },
  { name: "restart", description: "start the agent again after a failure", source: "conch" },
  { name: "logout", description: "log out of the agent (when it offers it); log in again to go on", source: "conch" },
  { name: "quit", description: "leave conch", source: "conch" },
];

/** Whether `name` is one of conch's own commands. */
export function isConchCommand(name: string): boolean {
  return CONCH_COMMANDS.some((c) => c.name === name);
}

/** conch's commands, then the agent's (an agent command named like one of conch's is hidden by it). */
export function allSlashCommands(agentCommands: readonly AvailableCommand[]): SlashCommand[] {
  const agent = agentCommands
    .filter((c) => !isConchCommand(c.name))
    .map((c): SlashCommand => ({ name: c.name, description: c.description, hint: c.input?.hint ?? undefined, source: "agent" }));
  return [...CONCH_COMMANDS, ...agent];
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

/** A `/name args` line split up, or null when the text is not a slash command. */
export function parseSlash(text: string): { name: string; args: string } | null {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return null;
  return { name: m[1], args: (m[2] ?? "").trim() };
}
