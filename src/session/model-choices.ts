import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { modelOption, selectValues } from "./config-options.js";
import { profileOf } from "./profiles/select-profile.js";
import type { SessionState } from "./state.js";

/** One choice a person can make: `id` is what `/model` sends (a model, or a model/effort pair). */
export interface ModelChoice {
  id: string;
  name: string;
  current: boolean;
}

/**
 * One model and, when the agent lists model/effort pairs (codex-acp 2.x: `gpt-5.5[high]`), its
 * efforts. A model without pairs is itself the choice (`id`); with pairs, the efforts are.
 */
export interface ModelGroup {
  /** The model's id: the choice itself when it has no efforts, else the pairs' common model. */
  id: string;
  name: string;
  description?: string;
  current: boolean;
  efforts: ModelChoice[];
}

interface Listed {
  id: string;
  name: string;
  description?: string | null;
}

/** Strips " (effort)" from a pair's name: "6.1 Sol (low)" → "6.1 Sol". */
function baseName(name: string, effort: string): string {
  const suffix = ` (${effort})`;
  return name.toLowerCase().endsWith(suffix.toLowerCase()) ? name.slice(0, -suffix.length) : name;
}

/** Groups model/effort pairs by model, in the agent's order; undefined when the ids are not pairs. */
function pairGroups(state: SessionState, listed: Listed[], current: string | undefined): ModelGroup[] | undefined {
  const split = profileOf(state).splitModelId;
  if (!split || listed.length === 0) return undefined;
  const groups = new Map<string, ModelGroup>();
  for (const m of listed) {
    const pair = split(m.id);
    if (!pair) return undefined;
    let group = groups.get(pair.model);
    if (!group) {
      group = { id: pair.model, name: baseName(m.name, pair.effort), current: false, efforts: [] };
      if (m.description) group.description = m.description;
      groups.set(pair.model, group);
    }
    const isCurrent = m.id === current;
    group.efforts.push({ id: m.id, name: pair.effort, current: isCurrent });
    if (isCurrent) group.current = true;
  }
  return [...groups.values()];
}

/**
 * What `/model` offers, grouped for a picker: the agent's model/effort pairs by model (50 codex
 * pairs are 9 models), else its models as they are, from the `model` config option (the
 * protocol's way) or the unstable `models` list.
 */
export function modelGroups(state: SessionState): ModelGroup[] {
  const models = state.models;
  const listed = (models?.availableModels ?? []).map((m) => ({ id: m.modelId, name: m.name, description: m.description }));
  const pairs = pairGroups(state, listed, models?.currentModelId);
  if (pairs) return pairs;
  const option = modelOption(state);
  const flat: ModelChoice[] = option
    ? selectValues(option).map((v) => ({ id: v.value, name: v.name, current: v.value === String(option.currentValue) }))
    : listed.map((m) => ({ id: m.id, name: m.name, current: m.id === models?.currentModelId }));
  return flat.map((c) => ({ id: c.id, name: c.name, current: c.current, efforts: [] }));
}

/**
 * The options that tune the model (`model_config`: context size, fast mode; `thought_level`:
 * reasoning effort), less the effort when the model list already pairs it with each model.
 */
export function modelSettings(state: SessionState): SessionConfigOption[] {
  const paired = modelGroups(state).some((g) => g.efforts.length > 0);
  return state.configOptions.filter((o) => o.category === "model_config" || (o.category === "thought_level" && !paired));
}

/**
 * The choice `/model` means by what was typed: a choice id (`gpt-5.5[high]`), a model by id or name
 * (its current effort kept, else the one named like the current, else the first), or a model and
 * an effort (`gpt-5.5 high`).
 */
export function findModelChoice(groups: ModelGroup[], typed: string): ModelChoice | undefined {
  const text = typed.trim();
  const lower = text.toLowerCase();
  for (const g of groups) {
    if (g.efforts.length === 0 && (g.id === text || g.id.toLowerCase() === lower || g.name.toLowerCase() === lower))
      return { id: g.id, name: g.name, current: g.current };
    const exact = g.efforts.find((e) => e.id === text || e.id.toLowerCase() === lower);
    if (exact) return exact;
  }
  const named = (w: string) => groups.find((g) => g.id.toLowerCase() === w || g.name.toLowerCase() === w);
  const words = lower.split(/\s+/);
  let group = named(lower);
  let effortWord: string | undefined;
  if (!group && words.length > 1) {
    effortWord = words[words.length - 1];
    group = named(words.slice(0, -1).join(" "));
  }
  if (!group) return undefined;
  if (group.efforts.length === 0) return effortWord ? undefined : { id: group.id, name: group.name, current: group.current };
  if (effortWord) return group.efforts.find((e) => e.name.toLowerCase() === effortWord);
  const currentEffort = groups.flatMap((g) => g.efforts).find((e) => e.current)?.name;
  return group.efforts.find((e) => e.current) ?? group.efforts.find((e) => e.name === currentEffort) ?? group.efforts[0];
}
