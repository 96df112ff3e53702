import { describe, expect, it } from "vitest";
import { findModelChoice, modelGroups, modelSettings } from "../../src/session/model-choices.js";
import { foldEvents, reduce } from "../../src/session/reduce.js";
import { cycleModes, isPermissiveMode, modeTitle, nextCycleMode } from "../../src/session/session-modes.js";
import { optionValueText } from "../../src/session/config-options.js";
import type { SessionState } from "../../src/session/state.js";
import { modeLabel } from "../../src/ui/status/session-facts.js";
import { traceToEvents } from "../support/trace-events.js";

const opened = (rel: string): SessionState => {
  const events = traceToEvents(rel);
  return foldEvents(events.slice(0, events.findIndex((e) => e.type === "session_started") + 1));
};
/** Presses Shift+Tab n times: each press switches to the mode it names, as the agent confirms. */
function press(s: SessionState, n: number): string[] {
  const seen: string[] = [];
  for (let i = 0; i < n; i++) {
    const next = nextCycleMode(s);
    if (!next) break;
    seen.push(next);
    s = reduce(s, {
      type: "update",
      at: 0,
      notification: { sessionId: "s", update: { sessionUpdate: "current_mode_update", currentModeId: next } },
    });
  }
  return seen;
}

describe("Shift+Tab never lands on a mode that drops approvals or the sandbox", () => {
  it("codex 0.16: read-only ↔ auto; full-access only by name", () => {
    const s = opened("codex-acp-0.16.0/c2.jsonl");
    expect(isPermissiveMode(s, "full-access")).toBe(true);
    expect(press(s, 4)).toEqual(["read-only", "auto", "read-only", "auto"]);
  });

  it("codex 2.6: read-only, workspace-write, agent (Auto review) cycle; agent-full-access is left out", () => {
    const s = opened("codex-acp-2.6.0/c2.jsonl");
    expect(cycleModes(s).map((m) => m.id)).toEqual(["read-only", "workspace-write", "agent"]);
    expect(press(s, 4)).toEqual(["agent", "read-only", "workspace-write", "agent"]);
  });

  it("gemini: two presses no longer reach YOLO", () => {
    const s = opened("gemini-cli-0.61.0/g1.jsonl");
    expect(press(s, 4)).toEqual(["autoEdit", "plan", "default", "autoEdit"]);
  });

  it("from a permissive mode, the next press leaves it for the next safe mode in the agent's order", () => {
    const s = opened("gemini-cli-0.61.0/g1.jsonl");
    const yolo = reduce(s, {
      type: "update",
      at: 0,
      notification: { sessionId: "s", update: { sessionUpdate: "current_mode_update", currentModeId: "yolo" } },
    });
    expect(nextCycleMode(yolo)).toBe("plan");
  });
});

describe("a mode is named the same in the footer and in /config", () => {
  it("codex 0.16's `auto` is Default in both", () => {
    const s = opened("codex-acp-0.16.0/c2.jsonl");
    expect(modeLabel(s)).toBe("Default");
    const mode = s.configOptions.find((o) => o.id === "mode")!;
    expect(optionValueText(mode)).toBe("Default (auto)");
    expect(modeTitle(s.modes!.availableModes.find((m) => m.id === "auto")!)).toBe("Default (auto)");
  });
});

describe("codex 2.6's 50 model/effort pairs are 9 models with their efforts", () => {
  const s = opened("codex-acp-2.6.0/c2.jsonl");

  it("grouped by model in the agent's order, the current pair marked", () => {
    const groups = modelGroups(s);
    expect(groups).toHaveLength(9);
    expect(groups.flatMap((g) => g.efforts)).toHaveLength(50);
    const current = groups.find((g) => g.current)!;
    expect(current.id).toBe("gpt-5.5");
    expect(current.name).toBe("5.5");
    expect(current.efforts.map((e) => `${e.name}${e.current ? "*" : ""}`)).toEqual(["low", "medium*", "high", "xhigh"]);
    expect(groups[0]).toMatchObject({ id: "gpt-6.1-sol", name: "6.1 Sol" });
  });

  it("the effort option is not listed again beside the pairs; fast mode is", () => {
    expect(modelSettings(s).map((o) => o.id)).toEqual(["fast-mode"]);
  });

  it("`/model` takes a pair, a model (keeping the effort), a model and an effort, or a name", () => {
    const groups = modelGroups(s);
    expect(findModelChoice(groups, "gpt-6.1-sol[high]")?.id).toBe("gpt-6.1-sol[high]");
    expect(findModelChoice(groups, "gpt-6.1-sol")?.id).toBe("gpt-6.1-sol[medium]");
    expect(findModelChoice(groups, "gpt-6.1-sol ultra")?.id).toBe("gpt-6.1-sol[ultra]");
    expect(findModelChoice(groups, "6.1 sol")?.id).toBe("gpt-6.1-sol[medium]");
    expect(findModelChoice(groups, "6.1 Sol high")?.id).toBe("gpt-6.1-sol[high]");
    expect(findModelChoice(groups, "gpt-5.5 ultra")).toBeUndefined();
  });

  it("an agent without pairs keeps its flat list (claude: the model option)", () => {
    const c = opened("claude-agent-acp-0.100.0/s1-text.jsonl");
    const groups = modelGroups(c);
    expect(groups.every((g) => g.efforts.length === 0)).toBe(true);
    expect(groups.find((g) => g.current)?.id).toBe("default");
    expect(modelSettings(c).map((o) => o.id)).toEqual(["effort", "fast", "ultracode"]);
  });
});
