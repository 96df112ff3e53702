import { beforeAll, describe, expect, it } from "vitest";
import type { SessionState, ToolCallView, TranscriptItem } from "../../../src/session/state.js";
import { DisplayTerminal } from "../../../src/terminals/display-terminal.js";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { SPINNER_FRAMES } from "../../../src/ui/render/theme.js";
import type { DrawContext } from "../../../src/ui/render/draw-context.js";
import { toolCardRows } from "../../../src/ui/render/tool-card-rows.js";
import { toolCardViewOf } from "../../../src/ui/render/item-view.js";
import { RowCache } from "../../../src/ui/transcript/row-cache.js";
import { CLAUDE_S2, CLAUDE_S2_TERM, CLAUDE_S3, CODEX_C2, finalState, toolByTitle } from "../components/fixtures.js";
import { atColorLevel, plainRows, sgr } from "./plain-rows.js";

// The App loads these before it draws the transcript; rows drawn alone need them first.
beforeAll(() => loadRenderLibs());

const s2 = finalState(CLAUDE_S2);
const echo = toolByTitle(s2, "echo hello");

function withStatus(status: ToolCallView["status"], localStatus?: ToolCallView["localStatus"]): ToolCallView {
  return { ...echo, status, localStatus, permission: undefined };
}

/** The card of `tool` as `state` (by default s2) shows it. */
function card(tool: ToolCallView, ctx: Partial<DrawContext> & { state?: SessionState } = {}): string {
  const { state = s2, ...drawing } = ctx;
  return plainRows(toolCardRows(toolCardViewOf(state, tool), { width: 80, ...drawing }));
}

const headerOf = (tool: ToolCallView, frame?: number) => card(tool, { frame }).split("\n")[0];

describe("a tool call's card", () => {
  it("shows every status with its own icon or word", () => {
    expect(headerOf(withStatus("pending"))).toMatch(/^○ \$ echo hello\s+pending$/);
    expect(headerOf(withStatus("completed"))).toMatch(/^✓ \$ echo hello$/);
    expect(headerOf(withStatus("failed"))).toMatch(/^✗ \$ echo hello\s+failed$/);
    expect(headerOf(withStatus("pending", "cancelled"))).toMatch(/cancelled$/);
    expect(headerOf(withStatus("pending", "rejected"))).toMatch(/rejected$/);
    expect(headerOf(withStatus("in_progress", "stalled"))).toMatch(/stalled$/);
    expect(headerOf(withStatus("pending", "unknown"))).toMatch(/unknown$/);
    const running = headerOf(withStatus("in_progress"));
    expect(running).toMatch(/running$/);
    expect(SPINNER_FRAMES).toContain(running[0]);
  });

  it("animates the spinner only while the call runs", () => {
    const seen = new Set(Array.from({ length: 6 }, (_, frame) => headerOf(withStatus("in_progress"), frame)[0]));
    expect(seen.size).toBeGreaterThan(1);
    const done = Array.from({ length: 6 }, (_, frame) => headerOf(withStatus("completed"), frame));
    expect(new Set(done).size).toBe(1);
    expect(done[0]).toMatch(/^✓/);
  });

  it("a finished card is not drawn again on the next frame, a running one is", () => {
    const cache = new RowCache();
    const item: TranscriptItem = s2.items.find((i) => i.kind === "tool" && i.toolCallId === echo.toolCallId)!;
    const at = (tool: ToolCallView, frame: number) =>
      cache.live(item, { ...s2, toolCalls: { ...s2.toolCalls, [echo.toolCallId]: tool } }, { width: 80, expanded: false, frame });
    const running = withStatus("in_progress");
    expect(plainRows(at(running, 1))[0]).not.toBe(plainRows(at(running, 2))[0]);
    const completed = withStatus("completed");
    const first = at(completed, 3);
    expect(at(completed, 4)).toBe(first);
  });

  it("colours the status: running in the accent colour, failed in red", () => {
    atColorLevel(1, () => {
      expect(toolCardRows(toolCardViewOf(s2, withStatus("in_progress")), { width: 80 })[0]).toContain(`${sgr("36")}running`);
      expect(toolCardRows(toolCardViewOf(s2, withStatus("failed")), { width: 80 })[0]).toContain(`${sgr("31")}✗`);
    });
  });

  it("claude s2: the completed command shows its output and the permission decision", () => {
    const out = card(echo);
    expect(out).toContain("hello");
    expect(out).toContain("allowed once");
    expect(out).not.toContain("pending");
  });

  it("codex c2: output that lives only in rawOutput is shown, and the argv command is unwrapped", () => {
    const c2 = finalState(CODEX_C2);
    const tool = toolByTitle(c2, "echo hello");
    const out = card({ ...tool, content: [] }, { state: c2 });
    expect(out).toContain("hello");
    expect(out).not.toContain("/bin/bash");
    // With the permission reason as its only content, the output still shows.
    expect(card(tool, { state: c2 })).toMatch(/Abort[\s\S]*hello/);
  });

  it("claude s3: an edit shows its diff relative to the cwd (not the location's line, its first hunk's start), and a rejected decision", () => {
    const s3 = finalState(CLAUDE_S3);
    const edit = toolByTitle(s3, "Edit hello.txt");
    const rejected: ToolCallView = {
      ...edit,
      permission: { outcome: "selected", optionKind: "reject_once", optionName: "Reject", source: "user" },
    };
    const out = card(rejected, { state: s3 });
    expect(out).toContain("hello.txt +1 -1");
    expect(out).not.toContain("hello.txt:1");
    expect(out).not.toContain("${PROJECT}");
    expect(out).toMatch(/2\s+- line two/);
    expect(out).toMatch(/2 \+ line 2 \(edited by the fake model\)/);
    expect(out).toContain("rejected");
  });

  it("long text output is clipped to ten lines unless expanded, and expanded shows the raw input", () => {
    const text = Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join("\n");
    const tool: ToolCallView = { ...echo, content: [{ type: "content", content: { type: "text", text } }] };
    const collapsed = card(tool);
    expect(collapsed).toContain("line 10");
    expect(collapsed).not.toContain("line 11");
    expect(collapsed).toContain("15 more lines");
    const expanded = card(tool, { expanded: true });
    expect(expanded).toContain("line 25");
    expect(expanded).toContain('"description": "Print hello"');
  });

  it("a terminal shows as a pane when it resolves, with all of its short output once finished", async () => {
    const s = finalState(CLAUDE_S2_TERM);
    const tool = toolByTitle(s, "echo hello");
    const term = new DisplayTerminal(tool.terminalId!, { cols: 76 });
    term.write(Array.from({ length: 8 }, (_, i) => `row ${i + 1}`).join("\n"));
    term.exit(0, null);
    await term.flush();
    const terminal = (id: string) => (id === term.id ? term : undefined);
    const out = card(tool, { state: s, terminal });
    expect(out).toContain("exit 0");
    for (let i = 1; i <= 8; i++) expect(out).toContain(`row ${i}`);
    expect(out).not.toContain("hidden");
    // Without a live screen, the recorded output tail is shown.
    expect(card({ ...tool, rawOutput: undefined }, { state: s })).toContain("hello");
  });
});
