import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { foldEvents } from "../../../src/session/reduce.js";
import { toolCardViewOf } from "../../../src/ui/render/item-view.js";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { toolCardRows } from "../../../src/ui/render/tool-card-rows.js";
import { traceToEvents } from "../../support/trace-events.js";
import { plainRows } from "./plain-rows.js";

beforeAll(() => loadRenderLibs());

const fixture = (name: string) => foldEvents(traceToEvents(path.resolve(__dirname, "../../fixtures/subagents", name)));

describe("a subagent's calls are drawn in the fold of the call that started it", () => {
  it("folded: a count by status under the Task card; expanded: each call on its own row", () => {
    const s = fixture("claude-parent-tool-use.jsonl");
    const view = toolCardViewOf(s, s.toolCalls.toolu_task);
    const folded = plainRows(toolCardRows(view, { width: 80 }));
    expect(folded).toContain("▸ 2 calls by the subagent · 2 done (/expand lists them)");
    expect(folded).not.toContain("Read src/config.ts");
    const open = plainRows(toolCardRows(view, { width: 80, expanded: true }));
    expect(open).toContain("▾ 2 calls by the subagent · 2 done");
    expect(open).toMatch(/^ {4}✓ ⌕ grep "loadConfig"$/m);
    expect(open).toMatch(/^ {4}✓ ◎ Read src\/config\.ts$/m);
  });

  it("a subagent still at work shows the call it runs now, even folded, with its own status", () => {
    const events = traceToEvents(path.resolve(__dirname, "../../fixtures/subagents/rfd-child-session.jsonl"));
    const s = foldEvents(
      events.slice(
        0,
        events.findIndex((e) => e.type === "update" && JSON.stringify(e).includes('"completed"')),
      ),
    );
    const rows = plainRows(toolCardRows(toolCardViewOf(s, s.toolCalls["subagent:sess-child"]), { width: 80 }));
    expect(rows.split("\n")[0]).toMatch(/^⠋ ◌ tester: Run the tests +running$/);
    expect(rows).toContain("▸ 1 call by the subagent · 1 running (/expand lists them)");
    expect(rows).toMatch(/^ {4}⠋ \$ npm test +running$/m);
  });
});
