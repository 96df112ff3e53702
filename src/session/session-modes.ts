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
