import { beforeAll, describe, expect, it } from "vitest";
import type { PlanEntry } from "@agentclientprotocol/sdk";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { itemRows, planRows } from "../../../src/ui/render/item-rows.js";
import { itemViewOf } from "../../../src/ui/render/item-view.js";
import { traceToEvents } from "../../support/trace-events.js";
import { CLAUDE_S7, finalState } from "../components/fixtures.js";
import { atColorLevel, plainRows, sgr } from "./plain-rows.js";

// The App loads these before it draws the transcript; rows drawn alone need them first.
beforeAll(() => loadRenderLibs());

/** The plans claude s7 sent, in order (TodoWrite becomes a full `plan` update each time). */
const plans: PlanEntry[][] = traceToEvents(CLAUDE_S7).flatMap((e) =>
  e.type === "update" && e.notification.update.sessionUpdate === "plan" ? [e.notification.update.entries] : [],
);

describe("plan rows", () => {
  it("claude s7: renders the checklist and changes statuses in place", () => {
    expect(plans.length).toBeGreaterThanOrEqual(2);
    const before = plainRows(planRows(plans[0], 80)).split("\n");
    const after = plainRows(planRows(plans[plans.length - 1], 80)).split("\n");
    expect(after).toHaveLength(before.length);
    expect(after[0]).toBe("Plan 2/3 done");
    expect(after.slice(1)).toEqual(["☑ Write the parser", "☑ Add tests", "◐ Update docs"]);
    expect(before.slice(1).map((l) => l.slice(2))).toEqual(after.slice(1).map((l) => l.slice(2)));
    expect(before.join("\n")).not.toEqual(after.join("\n"));
  });

  it("highlights the running step, dims and strikes through the done ones", () => {
    const rows = atColorLevel(1, () => planRows(plans[plans.length - 1], 80));
    const done = rows.find((r) => r.includes("Add tests"))!;
    const running = rows.find((r) => r.includes("Update docs"))!;
    expect(done).toContain(`${sgr("2;9")}Add tests`);
    expect(running).toContain(`${sgr("36;1")}Update docs`);
  });

  it("marks high priority and shows pending steps unchecked", () => {
    const entries: PlanEntry[] = [
      { content: "Fix the crash", priority: "high", status: "pending" },
      { content: "Tidy up", priority: "low", status: "pending" },
    ];
    const out = plainRows(planRows(entries, 80));
    expect(out).toContain("☐ ! Fix the crash");
    expect(out).toContain("☐ Tidy up");
    expect(out).toContain("0/2 done");
  });

  it("a plan item of the transcript shows the latest plan", () => {
    const s = finalState(CLAUDE_S7);
    const item = s.items.find((i) => i.kind === "plan");
    expect(item).toBeDefined();
    expect(plainRows(itemRows(itemViewOf(s, item!), { width: 80 }))).toContain("◐ Update docs");
  });
});
