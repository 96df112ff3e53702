import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import type { SessionState } from "./state.js";

/** A select config option. */
export type SelectOption = Extract<SessionConfigOption, { type: "select" }>;

/** The select option that picks the model, when the agent exposes one as a config option. */
export function modelOption(state: Pick<SessionState, "configOptions">): SelectOption | undefined {
  const opt = state.configOptions.find((o) => o.category === "model") ?? state.configOptions.find((o) => o.id === "model");
  return opt && opt.type === "select" ? opt : undefined;
}

/**
 * The model in use, as the agent last said: its model config option when it has one (what
 * `set_config_option` answers with), else the unstable model list's current model (what
 * `session/set_model` changed). The name is the agent's, when it names the model.
 */
export function currentModel(state: Pick<SessionState, "configOptions" | "models">): { id: string; name: string } | undefined {
  const opt = modelOption(state);
  if (opt) {
    const id = String(opt.currentValue);
    return { id, name: selectValues(opt).find((v) => v.value === id)?.name ?? id };
  }
  const models = state.models;
  if (!models?.currentModelId) return undefined;
  const id = models.currentModelId;
  return { id, name: models.availableModels.find((m) => m.modelId === id)?.name ?? id };
}

/** Values of a select config option, flattened out of groups. */
export function selectValues(opt: SelectOption): { value: string; name: string }[] {
  const out: { value: string; name: string }[] = [];
  for (const o of opt.options as unknown[]) {
    const entry = o as { value?: string; name?: string; options?: { value: string; name: string }[] };
    if (Array.isArray(entry.options)) out.push(...entry.options.map((x) => ({ value: x.value, name: x.name })));
    else if (typeof entry.value === "string") out.push({ value: entry.value, name: entry.name ?? entry.value });
  }
  return out;
}

/**
 * A config option's current value as a person reads it: a boolean's on/off, a select's value by
 * the name the agent gives it (the footer's word), with the id to type when they differ: "Default (auto)".
 */
export function optionValueText(opt: SessionConfigOption): string {
  if (opt.type === "boolean") return opt.currentValue ? "on" : "off";
  const id = String(opt.currentValue);
  const name = selectValues(opt).find((v) => v.value === id)?.name;
  return name && name !== id ? `${name} (${id})` : id;
}
