import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { optionValueText, selectValues } from "../../session/config-options.js";
import { findModelChoice, modelGroups, modelSettings, type ModelGroup } from "../../session/model-choices.js";
import { isPermissiveMode, modeTitle } from "../../session/session-modes.js";
import { openPicker, type PickerItem, type PickerState } from "../decisions/picker-state.js";
import type { CommandContext } from "./command-context.js";

// `/mode`, `/model` and `/config`: the protocol's session modes, model choice and config options,
// listed with no argument and set with one.

function findByIdOrName<T>(items: readonly T[], wanted: string, id: (t: T) => string, name: (t: T) => string): T | undefined {
  const w = wanted.toLowerCase();
  return items.find((i) => id(i) === wanted) ?? items.find((i) => id(i).toLowerCase() === w || name(i).toLowerCase() === w);
}

/** `/mode [mode id]`: the agent's modes, or a switch to one (by id or name). */
export function runMode(args: string, ctx: CommandContext): void {
  const modes = ctx.state.modes;
  if (!modes?.availableModes?.length) return ctx.show("this agent has no modes");
  if (!args) {
    const permissive = modes.availableModes.some((m) => isPermissiveMode(ctx.state, m.id));
    return ctx.show([
      permissive ? "modes (shift+tab cycles; ⚠ drops approvals or the sandbox: only by name, /mode <id>):" : "modes (shift+tab cycles):",
      ...modes.availableModes.map(
        (m) =>
          `${m.id === modes.currentModeId ? "●" : "○"} ${modeTitle(m)}${isPermissiveMode(ctx.state, m.id) ? " ⚠" : ""}${m.description ? ` · ${m.description}` : ""}`,
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
  // Named on purpose; still said plainly, since Shift+Tab never goes there.
  if (isPermissiveMode(ctx.state, mode.id))
    ctx.show(`⚠ ${modeTitle(mode)}: ${mode.description ?? "the agent no longer asks before it acts"}`);
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

/**
 * The `/model` picker: every choice, the current one marked; a model the agent pairs with efforts
 * (codex-acp 2.x) is one entry per effort, which typing filters ("5.5 high").
 */
function modelPicker(groups: readonly ModelGroup[]): PickerState {
  const items = groups.flatMap((g): PickerItem[] =>
    g.efforts.length
      ? g.efforts.map((e) => ({ id: e.id, label: `${g.name} · ${e.name}`, detail: e.id, current: e.current }))
      : [{ id: g.id, label: g.name, detail: g.name === g.id ? undefined : g.id, current: g.current }],
  );
  return openPicker("model (its settings: /config)", items, { kind: "model" });
}

/** The `/config` picker: the session's options with their values; choosing one lists its values. */
export function configPicker(options: readonly SessionConfigOption[]): PickerState {
  const items = options.map((o): PickerItem => ({
    id: o.id,
    label: o.name || o.id,
    detail: `${optionValueText(o)}${o.name && o.name !== o.id ? ` · ${o.id}` : ""}`,
  }));
  return openPicker("session options", items, { kind: "config" });
}

/** The values of one option to pick from (on and off for a switch), the current one marked. */
export function configValuePicker(option: SessionConfigOption): PickerState {
  const items: PickerItem[] =
    option.type === "boolean"
      ? [
          { id: "on", label: "on", current: option.currentValue === true },
          { id: "off", label: "off", current: option.currentValue === false },
        ]
      : selectValues(option).map((v) => ({
          id: v.value,
          label: v.name,
          detail: v.name === v.value ? undefined : v.value,
          current: v.value === String(option.currentValue),
        }));
  return openPicker(option.name || option.id, items, { kind: "config-value", optionId: option.id });
}

/** A value picked for an option, as the session takes it: a switch's on/off as true/false. */
export function pickedConfigValue(option: SessionConfigOption | undefined, picked: string): string | boolean {
  return option?.type === "boolean" ? picked === "on" : picked;
}

/** One model as a line: the current marker, its name and id, and its efforts when it has pairs. */
function modelLine(g: ModelGroup): string {
  const mark = g.current ? "●" : "○";
  if (!g.efforts.length) return `${mark} ${modeTitle(g)}`;
  return `${mark} ${modeTitle(g)} · effort ${g.efforts.map((e) => (e.current ? `${e.name}*` : e.name)).join(", ")}`;
}

/** `/model [model id | model effort]`: the models (grouped with their efforts) and their settings, or a switch. */
export function runModel(args: string, ctx: CommandContext): void {
  const { state } = ctx;
  const groups = modelGroups(state);
  const tuning = modelSettings(state);
  if (!groups.length && !tuning.length) return ctx.show("this agent does not offer a model choice");
  if (!args && groups.length && ctx.openPicker) return ctx.openPicker(modelPicker(groups));
  const paired = groups.some((g) => g.efforts.length > 0);
  if (!args) {
    return ctx.show([
      ...(groups.length ? [paired ? "models (/model <model> [effort]):" : "models:", ...groups.map(modelLine)] : []),
      ...(tuning.length ? [...(groups.length ? [""] : []), "model settings (/config <id> <value>):", ...tuning.map(optionLine)] : []),
    ]);
  }
  const choice = findModelChoice(groups, args);
  if (!choice) return ctx.show(`no model "${args}": ${groups.map((g) => g.id).join(", ")}`, "error");
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

/** `/config [option id] [value]`: the session's options, one option, or a new value for it. */
export function runConfig(args: string, ctx: CommandContext): void {
  const options = ctx.state.configOptions;
  if (!options.length) return ctx.show("this agent has no session options");
  const [id, ...rest] = args.split(/\s+/).filter(Boolean);
  if (!id && ctx.openPicker) return ctx.openPicker(configPicker(options));
  if (!id) return ctx.show(["session options (/config <id> <value>; a switch takes on, off or toggle):", ...options.map(optionLine)]);
  const option = options.find((o) => o.id === id);
  if (!option) return ctx.show(`no option "${id}": ${options.map((o) => o.id).join(", ")}`, "error");
  const value = rest.join(" ");
  if (!value && ctx.openPicker) return ctx.openPicker(configValuePicker(option));
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
