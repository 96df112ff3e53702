import type { SessionState } from "../../session/state.js";
import { loadRenderLibs } from "../render/render-libs.js";
import { keyHelpLines, shortKeys } from "../shell/key-bindings.js";
import { isBusy } from "../status/status-text.js";
import type { CommandContext } from "./command-context.js";
import { runExport } from "./export-command.js";
import { runPermissions } from "./permissions-command.js";
import { runConfig, runMode, runModel } from "./session-option-commands.js";

/** One of conch's own slash commands: how /help and the `/` menu show it, and what it does. */
export interface ConchCommand {
  name: string;
  /** What the arguments are, when the command takes any. */
  hint?: string;
  description: string;
  /** Runs the command with the text after its name (trimmed; empty when there is none). */
  run(args: string, ctx: CommandContext): void;
}

/** conch's own commands, in the order /help and the menu list them; they run here and never reach the agent. */
export const CONCH_COMMANDS: readonly ConchCommand[] = [
  { name: "help", description: "keys and commands", run: (_args, ctx) => ctx.show(helpLines(ctx.state)) },
  {
    name: "clear",
    description: "clear the screen and start a new session (the old one is closed and kept)",
    run: (_args, ctx) => {
      // A fresh conversation: a clear screen and a new session, the old one closed at the agent.
      ctx.clearScreen();
      if (ctx.state.info) void ctx.port.newConversation();
    },
  },
  {
    name: "fork",
    description: "go on in a new session that starts from this one's history",
    run: (_args, { state, port, show }) => {
      const sessions = state.agent?.capabilities?.sessionCapabilities as { fork?: unknown } | undefined;
      if (!sessions?.fork) return show("this agent cannot fork sessions", "error");
      void port.fork();
    },
  },
  { name: "mode", hint: "[mode id]", description: "show or switch the agent's mode", run: runMode },
  { name: "model", hint: "[model id]", description: "show or switch the model, and its settings", run: runModel },
  {
    name: "config",
    hint: "<option id> <value>",
    description: "show or set a session option (on/off/toggle for a switch)",
    run: runConfig,
  },
  {
    name: "sessions",
    description: "list saved sessions (resume one with conch -r <id>)",
    run: (_args, ctx) => {
      if (!ctx.listSessions) return ctx.show("sessions: run `conch sessions`");
      void ctx.listSessions().then(
        (table) => ctx.show([...table.split("\n"), "", "resume one with: conch -r <id>"]),
        (err: Error) => ctx.show(`could not list sessions: ${err.message}`, "error"),
      );
    },
  },
  {
    name: "cancel",
    description: "cancel the running turn",
    run: (_args, ctx) => (isBusy(ctx.state) ? ctx.port.cancel() : ctx.show("nothing to cancel")),
  },
  {
    name: "undo",
    hint: "[turn | list]",
    description:
      "put back the files the last turn (or turn N) changed, whoever changed them, after showing the diff; list: the turns with changes",
    run: (args, ctx) => runUndo(args, ctx, false),
  },
  {
    name: "redo",
    hint: "[turn]",
    description: "apply again what the last /undo put back",
    run: (args, ctx) => runUndo(args, ctx, true),
  },
  {
    name: "permissions",
    hint: "[remove N]",
    description: "the permission rules in force and where each is written; remove N forgets a remembered one",
    run: runPermissions,
  },
  {
    name: "expand",
    description: "show tool output and thoughts in full (toggle)",
    run: (_args, ctx) =>
      ctx.show(ctx.toggleExpanded() ? "expanded: tool output and thoughts in full" : "collapsed: tool output and thoughts clipped"),
  },
  {
    name: "search",
    hint: "[text]",
    description: `find text in this session: prompts, answers, tool titles, commands, output (${shortKeys("search")})`,
    run: (args, ctx) => (ctx.openSearch ? ctx.openSearch(args) : ctx.show("search is not available here", "error")),
  },
  {
    name: "tasks",
    description: `what runs in this session and ran in the background: open, stop, find its card (${shortKeys("tasks")})`,
    run: (_args, ctx) => (ctx.openTasks ? ctx.openTasks() : ctx.show("the tasks view is not available here", "error")),
  },
  {
    name: "paste-image",
    description: "attach the image on the clipboard to the next message (alt-v)",
    run: (_args, ctx) => (ctx.pasteImage ? ctx.pasteImage() : ctx.show("pasting images is not available here", "error")),
  },
  {
    name: "export",
    hint: "[file] [--force]",
    description: "save the transcript as Markdown (default: conch-<id>-<date>.md here)",
    run: runExport,
  },
  {
    name: "restart",
    description: "start the agent again after a failure",
    run: (_args, ctx) => (ctx.state.phase !== "failed" ? ctx.show("the agent is running; /restart is for after it failed") : ctx.restart()),
  },
  {
    name: "logout",
    description: "log out of the agent (when it offers it); log in again to go on",
    run: (_args, { state, port, show }) => {
      if (!state.agent?.capabilities?.auth?.logout) return show("this agent does not offer a logout", "error");
      void port.logout();
    },
  },
  { name: "quit", description: "leave conch", run: (_args, ctx) => ctx.quit() },
];

const BY_NAME: ReadonlyMap<string, ConchCommand> = new Map(CONCH_COMMANDS.map((c) => [c.name, c]));

/** Whether `name` is one of conch's own commands. */
export function isConchCommand(name: string): boolean {
  return BY_NAME.has(name);
}

/** A `/name args` line split up, or null when the text is not a slash command. */
export function parseSlash(text: string): { name: string; args: string } | null {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return null;
  return { name: m[1], args: (m[2] ?? "").trim() };
}

/**
 * The conch command a submitted line calls, with its arguments; null for anything else, which goes
 * to the agent as typed (the agent's own slash commands, and names neither side knows).
 */
export function conchCommandOf(text: string): { command: ConchCommand; args: string } | null {
  const slash = parseSlash(text);
  const command = slash && BY_NAME.get(slash.name);
  return command ? { command, args: slash.args } : null;
}

/** How a command reads in /help: `/name hint · description`. */
function commandHelpLine(c: Pick<ConchCommand, "name" | "hint" | "description">): string {
  return `/${c.name}${c.hint ? ` ${c.hint}` : ""} · ${c.description}`;
}

function helpLines(state: SessionState): string[] {
  const agent = state.commands.filter((c) => !isConchCommand(c.name));
  return [
    ...keyHelpLines(),
    "",
    ...CONCH_COMMANDS.map(commandHelpLine),
    ...(agent.length ? ["", `the agent's commands: ${agent.map((c) => `/${c.name}`).join(" ")}`] : []),
    "",
    ...shellHelpLines(state.info?.sessionId),
  ];
}

/** What conch does from a shell beside this session: the features that are not slash commands. */
function shellHelpLines(sessionId: string | undefined): string[] {
  const id = sessionId ?? "<id>";
  return [
    "from another terminal:",
    `conch attach ${id} · follow this session read-only, as it grows`,
    `conch export ${id} · the transcript as Markdown`,
    "conch agents --probe · what each agent can do, next to what conch uses",
  ];
}

/** `/undo [turn | list]`: the plan goes to the undo prompt (the diff needs the render libraries); anything else is shown. */
function runUndo(args: string, ctx: CommandContext, redo: boolean): void {
  const plan = redo ? ctx.port.planRedo(args) : ctx.port.planUndo(args);
  void plan.then(
    async (answer) => {
      if (answer.kind === "message") return ctx.show(answer.lines, answer.error ? "error" : "info");
      await loadRenderLibs();
      if (ctx.askUndo) ctx.askUndo(answer.plan);
      else ctx.show("undo needs the interactive prompt", "error");
    },
    (err: Error) => ctx.show(`undo failed: ${err.message}`, "error"),
  );
}
