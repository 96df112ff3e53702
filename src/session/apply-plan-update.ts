import type { PlanEntry } from "@agentclientprotocol/sdk";
import type { PlanRemoved, PlanUpdate } from "@agentclientprotocol/sdk/unstable";

/** A markdown list item, with an optional task box: `- [x] done`, `1. step`. */
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[([ xX~-])\]\s+)?(.+?)\s*$/;

/**
 * The entries an unstable `plan_update` shows (ACP's identified plans): its items as they are; a
 * markdown plan's list items (a task box says its status), or its text as one entry when it has no
 * list; a plan kept in a file as one entry naming the file.
 */
export function planUpdateEntries(update: PlanUpdate): PlanEntry[] {
  const plan = update.plan;
  switch (plan.type) {
    case "items":
      return Array.isArray(plan.entries) ? plan.entries : [];
    case "markdown": {
      const text = typeof plan.content === "string" ? plan.content : "";
      const entries: PlanEntry[] = [];
      for (const line of text.split("\n")) {
        const m = LIST_ITEM.exec(line);
        if (!m) continue;
        const box = m[1];
        const status = box === "x" || box === "X" ? "completed" : box === "~" || box === "-" ? "in_progress" : "pending";
        entries.push({ content: m[2], priority: "medium", status });
      }
      if (entries.length === 0 && text.trim()) entries.push({ content: text.trim(), priority: "medium", status: "pending" });
      return entries;
    }
    case "file":
      return [{ content: `the plan is in ${plan.uri}`, priority: "medium", status: "pending" }];
    default:
      return [];
  }
}

/** The plan id of a `plan_update` or `plan_removed`, when it has one. */
export function planIdOf(update: PlanUpdate | PlanRemoved): string | undefined {
  const id = "planId" in update ? update.planId : (update.plan as { planId?: unknown } | undefined)?.planId;
  return typeof id === "string" ? id : undefined;
}
