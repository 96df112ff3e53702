import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import type { UndoPlan } from "../../orchestrator/turn-undo.js";
import type { SessionState } from "../../session/state.js";
import { loadRenderLibs } from "../components/render-libs.js";
import { CONCH_COMMANDS } from "../input/slash-commands.js";
import { keyHelpLines } from "../shell/key-bindings.js";
import type { SessionPort } from "../session-port.js";
import { modelConfigOptions, modelOption, optionValueText, selectValues } from "../../session/config-options.js";
import { isBusy } from "../status/status-text.js";
import { runExport } from "./export-command.js";

/** What conch's own commands may do to the view and the session. */
export interface CommandContext {
  port: SessionPort;
  state: SessionState;
  /** Shows a message panel under the input until the next prompt. */
  show(lines: string | string[], tone?: "info" | "error"): void;
  clearScreen(): void;
  toggleExpanded(): boolean;
  restart(): void;
  quit(): void;
  /** The saved sessions as a table, when the app can read them. */
  listSessions?: () => Promise<string>;
  /** Shows what an undo will put back and asks before it does. */
  askUndo?(plan: UndoPlan): void;
  /** Opens the search view with a query (/search). */
  openSearch?(query: string): void;
  /** Attaches the clipboard's image to the message being written (/paste-image). */
  pasteImage?(): void;
}

function helpLines(state: SessionState): string[] {
  const agent = state.commands.filter((c) => !CONCH_COMMANDS.some((k) => k.name === c.name));
  return [
    ...keyHelpLines(),
    "",
    ...CONCH_COMMANDS.map((c) => `/${c.name}${c.hint ? ` ${c.hint}` : ""} · ${c.description}`),
    ...(agent.length ? ["", `the agent's commands: ${agent.map((c) => `/${c.name}`).join(" ")}`] : []),
  ];
}

function findByIdOrName<T>(items: readonly T[], wanted: string, id: (t: T) => string, name: (t: T) => string): T | undefined {
  const w = wanted.toLowerCase();
  return items.find((i) => id(i) === wanted) ?? items.find((i) => id(i).toLowerCase() === w || name(i).toLowerCase() === w);
}

function runMode(args: string, ctx: CommandContext): void {
  const modes = ctx.state.modes;
  if (!modes?.availableModes?.length) return ctx.show("this agent has no modes");
  if (!args) {
    return ctx.show([
      "modes (shift+tab cycles):",
      ...modes.availableModes.map(
        (m) => `${m.id === modes.currentModeId ? "●" : "○"} ${m.id} · ${m.name}${m.description ? ` · ${m.description}` : ""}`,
      ),
    ]);
  }
  const mode = findByIdOrName(
    modes.availableModes,
    args,
    (m) => m.id,
    (m) => m.name,
  );
  if (!mode) return ctx.show(`no mode "${args}": ${modes.availableModes.map((m) => m.id).join(", ")}`, "error");
  void ctx.port.setMode(mode.id);
}

/** One config option as a line of a list: its value, and what it can be set to. */
function optionLine(o: SessionConfigOption): string {
  const values =
    o.type === "select"
      ? selectValues(o)
          .map((v) => v.value)
          .join(", ")
      : "on, off, toggle";
  return `${o.id} = ${optionValueText(o)} · ${values}${o.name && o.name !== o.id ? ` · ${o.name}` : ""}`;
}

function runModel(args: string, ctx: CommandContext): void {
  const { state } = ctx;
  const models = state.models;
  // The model config option is the protocol's way; the unstable model list only where there is none.
  const option = modelOption(state);
  const choices = option
    ? selectValues(option).map((v) => ({ id: v.value, name: v.name, current: v.value === String(option.currentValue) }))
    : models?.availableModels?.length
      ? models.availableModels.map((m) => ({ id: m.modelId, name: m.name, current: m.modelId === models.currentModelId }))
      : [];
  const tuning = modelConfigOptions(state);
  if (!choices.length && !tuning.length) return ctx.show("this agent does not offer a model choice");
  if (!args) {
    return ctx.show([
      ...(choices.length ? ["models:", ...choices.map((c) => `${c.current ? "●" : "○"} ${c.id} · ${c.name}`)] : []),
      ...(tuning.length ? [...(choices.length ? [""] : []), "model settings (/config <id> <value>):", ...tuning.map(optionLine)] : []),
    ]);
  }
  const choice = findByIdOrName(
    choices,
    args,
    (c) => c.id,
    (c) => c.name,
  );
  if (!choice) return ctx.show(`no model "${args}": ${choices.map((c) => c.id).join(", ")}`, "error");
  void ctx.port.setModel(choice.id);
}

/** `on`/`off`/`toggle` (and their usual spellings) for a boolean option; undefined when it is none of them. */
function booleanValue(word: string, current: boolean): boolean | undefined {
  const w = word.toLowerCase();
  if (["on", "true", "yes", "1", "enable"].includes(w)) return true;
  if (["off", "false", "no", "0", "disable"].includes(w)) return false;
  if (w === "toggle") return !current;
  return undefined;
}

function runConfig(args: string, ctx: CommandContext): void {
  const options = ctx.state.configOptions;
  if (!options.length) return ctx.show("this agent has no session options");
  const [id, ...rest] = args.split(/\s+/).filter(Boolean);
  if (!id) return ctx.show(["session options (/config <id> <value>; a switch takes on, off or toggle):", ...options.map(optionLine)]);
  const option = options.find((o) => o.id === id);
  if (!option) return ctx.show(`no option "${id}": ${options.map((o) => o.id).join(", ")}`, "error");
  const value = rest.join(" ");
  if (!value) return ctx.show(optionLine(option));
  if (option.type === "boolean") {
    const next = booleanValue(value, option.currentValue);
    if (next === undefined) return ctx.show(`${option.id} is a switch: on, off or toggle`, "error");
    void ctx.port.setConfigOption(option.id, next);
    return;
  }
  if (!selectValues(option).some((v) => v.value === value)) {
    return ctx.show(
      `"${value}" is not a value of ${option.id}: ${selectValues(option)
        .map((v) => v.value)
        .join(", ")}`,
      "error",
    );
  }
  void ctx.port.setConfigOption(option.id, value);
}

/** `/undo [turn | list]`: the plan goes to the undo prompt (the diff needs the render libraries); anything else is shown. */
function runUndo(args: string, ctx: CommandContext): void {
  void ctx.port.planUndo(args).then(
    async (answer) => {
      if (answer.kind === "message") return ctx.show(answer.lines, answer.error ? "error" : "info");
      await loadRenderLibs();
      if (ctx.askUndo) ctx.askUndo(answer.plan);
      else ctx.show("undo needs the interactive prompt", "error");
    },
    (err: Error) => ctx.show(`undo failed: ${err.message}`, "error"),
  );
}

/** Runs one of conch's own slash commands. */
export function runConchCommand(name: string, args: string, ctx: CommandContext): void {
  const { state, port } = ctx;
  switch (name) {
    case "help":
      return ctx.show(helpLines(state));
    case "clear":
      // A fresh conversation: a clear screen and a new session, the old one closed at the agent.
      ctx.clearScreen();
      if (!state.info) return;
      void port.newConversation();
      return;
    case "fork":
      if (!state.agent?.capabilities?.sessionCapabilities || !(state.agent.capabilities.sessionCapabilities as { fork?: unknown }).fork) {
        return ctx.show("this agent cannot fork sessions", "error");
      }
      void port.fork();
      return;
    case "logout":
      if (!state.agent?.capabilities?.auth?.logout) return ctx.show("this agent does not offer a logout", "error");
      void port.logout();
      return;
    case "mode":
      return runMode(args, ctx);
    case "model":
      return runModel(args, ctx);
    case "config":
      return runConfig(args, ctx);
    case "sessions":
      if (!ctx.listSessions) return ctx.show("sessions: run `conch sessions`");
      void ctx.listSessions().then(
        (table) => ctx.show([...table.split("\n"), "", "resume one with: conch -r <id>"]),
        (err: Error) => ctx.show(`could not list sessions: ${err.message}`, "error"),
      );
      return;
    case "cancel":
      if (!isBusy(state)) return ctx.show("nothing to cancel");
      return port.cancel();
    case "undo":
      return runUndo(args, ctx);
    case "expand":
      return ctx.show(ctx.toggleExpanded() ? "expanded: tool output and thoughts in full" : "collapsed: tool output and thoughts clipped");
    case "export":
      return runExport(args, ctx);
    case "search":
      if (!ctx.openSearch) return ctx.show("search is not available here", "error");
      return ctx.openSearch(args);
    case "paste-image":
      if (!ctx.pasteImage) return ctx.show("pasting images is not available here", "error");
      return ctx.pasteImage();
    case "restart":
      if (state.phase !== "failed") return ctx.show("the agent is running; /restart is for after it failed");
      return ctx.restart();
    case "quit":
      return ctx.quit();
    default:
      return ctx.show(`unknown command /${name}`, "error");
  }
}
