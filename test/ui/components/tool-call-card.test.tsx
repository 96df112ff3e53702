import React from "react";
import { beforeAll, describe, expect, it } from "vitest";
import { render } from "ink-testing-library";
import type { ToolCallView } from "../../../src/session/state.js";
import { DisplayTerminal } from "../../../src/terminals/display-terminal.js";
import { ToolCallCard } from "../../../src/ui/components/tool-call-card.js";
import { SPINNER_FRAMES } from "../../../src/ui/components/theme.js";
import { CLAUDE_S2, CLAUDE_S2_TERM, CLAUDE_S3, CODEX_C2, finalState, tick, toolByTitle } from "./fixtures.js";
import { loadRenderLibs } from "../../../src/ui/components/render-libs.js";

// The App loads these after its first frame; a component drawn alone needs them first.
beforeAll(() => loadRenderLibs());

const s2 = finalState(CLAUDE_S2);
const echo = toolByTitle(s2, "echo hello");

function withStatus(status: ToolCallView["status"], localStatus?: ToolCallView["localStatus"]): ToolCallView {
  return { ...echo, status, localStatus, permission: undefined };
}

function frameOf(tool: ToolCallView, expanded = false): string {
  const view = render(<ToolCallCard tool={tool} state={s2} width={80} expanded={expanded} />);
  const frame = view.lastFrame() ?? "";
  view.unmount();
  return frame;
}

function headerOf(tool: ToolCallView): string {
  return frameOf(tool).split("\n")[0];
}

describe("ToolCallCard", () => {
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

  it("animates the spinner only while the call runs", async () => {
    const view = render(<ToolCallCard tool={withStatus("in_progress")} state={s2} width={80} />);
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      seen.add((view.lastFrame() ?? "")[0]);
      await tick(50);
    }
    expect(seen.size).toBeGreaterThan(1);
    view.rerender(<ToolCallCard tool={withStatus("completed")} state={s2} width={80} />);
    await tick(20);
    const frames = view.frames.length;
    await tick(250);
    expect(view.frames.length).toBe(frames);
    expect(view.lastFrame()).toMatch(/^✓/);
    view.unmount();
  });

  it("claude s2: the completed command shows its output and the permission decision", () => {
    const frame = frameOf(echo);
    expect(frame).toContain("hello");
    expect(frame).toContain("allowed once");
    expect(frame).not.toContain("pending");
  });

  it("codex c2: output that lives only in rawOutput is shown, and the argv command is unwrapped", () => {
    const c2 = finalState(CODEX_C2);
    const tool = toolByTitle(c2, "echo hello");
    const view = render(<ToolCallCard tool={{ ...tool, content: [] }} state={c2} width={80} />);
    const frame = view.lastFrame() ?? "";
    expect(frame).toContain("hello");
    expect(frame).not.toContain("/bin/bash");
    view.unmount();
    // With the permission reason as its only content, the output still shows.
    expect(render(<ToolCallCard tool={tool} state={c2} width={80} />).lastFrame()).toMatch(/Abort[\s\S]*hello/);
  });

  it("claude s3: an edit shows its diff, its location relative to the cwd, and a rejected decision", () => {
    const s3 = finalState(CLAUDE_S3);
    const edit = toolByTitle(s3, "Edit hello.txt");
    const rejected: ToolCallView = { ...edit, permission: { outcome: "selected", optionKind: "reject_once", optionName: "Reject", source: "user" } };
    const view = render(<ToolCallCard tool={rejected} state={s3} width={80} />);
    const frame = view.lastFrame() ?? "";
    expect(frame).toContain("hello.txt:1");
    expect(frame).not.toContain("${PROJECT}");
    expect(frame).toMatch(/2\s+- line two/);
    expect(frame).toMatch(/2 \+ line 2 \(edited by the fake model\)/);
    expect(frame).toContain("rejected");
    view.unmount();
  });

  it("long text output is clipped to ten lines unless expanded, and expanded shows the raw input", () => {
    const text = Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join("\n");
    const tool: ToolCallView = { ...echo, content: [{ type: "content", content: { type: "text", text } }] };
    const collapsed = frameOf(tool);
    expect(collapsed).toContain("line 10");
    expect(collapsed).not.toContain("line 11");
    expect(collapsed).toContain("15 more lines");
    const expanded = frameOf(tool, true);
    expect(expanded).toContain("line 25");
    expect(expanded).toContain('"description": "Print hello"');
  });

  it("a terminal shows as a pane when it resolves, collapsed to its last rows once finished", async () => {
    const s = finalState(CLAUDE_S2_TERM);
    const tool = toolByTitle(s, "echo hello");
    const term = new DisplayTerminal(tool.terminalId!, { cols: 76 });
    term.write(Array.from({ length: 8 }, (_, i) => `row ${i + 1}`).join("\n"));
    term.exit(0, null);
    await term.flush();
    await tick(10);
    const view = render(<ToolCallCard tool={tool} state={s} width={80} terminal={(id) => (id === term.id ? term : undefined)} />);
    const frame = view.lastFrame() ?? "";
    expect(frame).toContain("exit 0");
    expect(frame).toContain("row 8");
    expect(frame).toContain("row 6");
    expect(frame).not.toContain("row 5");
    view.rerender(<ToolCallCard tool={tool} state={s} width={80} expanded terminal={(id) => (id === term.id ? term : undefined)} />);
    expect(view.lastFrame()).toContain("row 1");
    view.unmount();
    // Without a live screen, the recorded output tail is shown.
    const recorded = render(<ToolCallCard tool={{ ...tool, rawOutput: undefined }} state={s} width={80} />);
    expect(recorded.lastFrame()).toContain("hello");
    recorded.unmount();
  });
});
