import React from "react";
import { describe, expect, it } from "vitest";
import { render } from "ink-testing-library";
import type { PlanEntry } from "@agentclientprotocol/sdk";
import { PlanView } from "../../../src/ui/components/plan-view.js";
import { TranscriptItemView } from "../../../src/ui/components/transcript-item.js";
import { traceToEvents } from "../../support/trace-events.js";
import { CLAUDE_S7, finalState } from "./fixtures.js";

/** The plans claude s7 sent, in order (TodoWrite becomes a full `plan` update each time). */
const plans: PlanEntry[][] = traceToEvents(CLAUDE_S7).flatMap((e) =>
  e.type === "update" && e.notification.update.sessionUpdate === "plan" ? [e.notification.update.entries] : [],
);

describe("PlanView", () => {
  it("claude s7: renders the checklist and changes statuses in place", () => {
    expect(plans.length).toBeGreaterThanOrEqual(2);
    const view = render(<PlanView entries={plans[0]} width={80} />);
    const before = (view.lastFrame() ?? "").split("\n");
    view.rerender(<PlanView entries={plans[plans.length - 1]} width={80} />);
    const after = (view.lastFrame() ?? "").split("\n");
    expect(after).toHaveLength(before.length);
    expect(after[0]).toBe("Plan 2/3 done");
    expect(after.slice(1)).toEqual(["☑ Write the parser", "☑ Add tests", "◐ Update docs"]);
    expect(before.slice(1).map((l) => l.slice(2))).toEqual(after.slice(1).map((l) => l.slice(2)));
    expect(before.join("\n")).not.toEqual(after.join("\n"));
    view.unmount();
  });

  it("marks high priority and shows pending steps unchecked", () => {
    const entries: PlanEntry[] = [
      { content: "Fix the crash", priority: "high", status: "pending" },
      { content: "Tidy up", priority: "low", status: "pending" },
    ];
    const frame = render(<PlanView entries={entries} width={80} />).lastFrame() ?? "";
    expect(frame).toContain("☐ ! Fix the crash");
    expect(frame).toContain("☐ Tidy up");
    expect(frame).toContain("0/2 done");
  });

  it("a plan item of the transcript shows the latest plan", () => {
    const s = finalState(CLAUDE_S7);
    const item = s.items.find((i) => i.kind === "plan");
    expect(item).toBeDefined();
    const frame = render(<TranscriptItemView item={item!} state={s} width={80} live={false} />).lastFrame() ?? "";
    expect(frame).toContain("◐ Update docs");
  });
});
