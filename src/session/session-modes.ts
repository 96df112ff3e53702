import { profileOf } from "./profiles/select-profile.js";
import type { SessionState } from "./state.js";

/**
 * The session's modes when the agent offers them only as a config option of category `mode`
 * (opencode): the option's values become the modes, and switching mode sets that option. Modes the
 * agent sent as `modes` win.
 */
export function deriveModes(s: SessionState): void {
  if (s.modes && s.modeConfigId === undefined) return;
  const option = s.configOptions.find((o) => o.category === "mode" && o.type === "select");
  if (!option || option.type !== "select") {
    if (s.modeConfigId !== undefined) {
      s.modes = undefined;
      s.modeConfigId = undefined;
    }
    return;
  }
  const values: { id: string; name: string; description?: string | null }[] = [];
  for (const o of option.options as unknown[]) {
    const entry = o as { value?: unknown; name?: unknown; description?: unknown; options?: unknown[] };
    const flat = Array.isArray(entry.options) ? (entry.options as (typeof entry)[]) : [entry];
    for (const v of flat) {
      if (typeof v.value !== "string") continue;
      values.push({
        id: v.value,
        name: typeof v.name === "string" ? v.name : v.value,
        description: typeof v.description === "string" ? v.description : null,
      });
    }
  }
  s.modes = { currentModeId: String(option.currentValue), availableModes: values };
  s.modeConfigId = option.id;
}

/** Whether a mode drops approvals or the sandbox (codex full access, gemini yolo): the agent's profile knows. */
export function isPermissiveMode(state: Pick<SessionState, "agent" | "info">, modeId: string): boolean {
  return profileOf(state).permissiveModes.includes(modeId);
}

/** The modes Shift+Tab goes through, in the agent's order: every mode but the permissive ones. */
export function cycleModes(state: SessionState): { id: string; name: string }[] {
  return (state.modes?.availableModes ?? []).filter((m) => !isPermissiveMode(state, m.id));
}

/**
 * The mode Shift+Tab switches to: the next one of the cycle after the current mode (from a
 * permissive mode, the first one after it in the agent's order). Undefined when there is none to go to.
 */
export function nextCycleMode(state: SessionState): string | undefined {
  const all = state.modes?.availableModes ?? [];
  const cycle = new Set(cycleModes(state).map((m) => m.id));
  const current = all.findIndex((m) => m.id === state.modes?.currentModeId);
  for (let step = 1; step <= all.length; step++) {
    const m = all[(current + step + all.length) % all.length];
    if (cycle.has(m.id) && m.id !== state.modes?.currentModeId) return m.id;
  }
  return undefined;
}

/** A mode as a person reads it: its name, with the id when they differ ("Default (auto)"). */
export function modeTitle(mode: { id: string; name?: string | null }): string {
  return mode.name && mode.name !== mode.id ? `${mode.name} (${mode.id})` : mode.id;
}
