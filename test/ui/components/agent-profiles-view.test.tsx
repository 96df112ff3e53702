import React from "react";
import { beforeAll, describe, expect, it } from "vitest";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { renderKeyed as render } from "../render-keyed.js";
import { displayOf, requestDisplayOf } from "../../../src/session/profiles/display-of.js";
import type { SessionState } from "../../../src/session/state.js";
import { PermissionPrompt } from "../../../src/ui/components/permission-prompt.js";
import { requestViewOf } from "../../../src/ui/render/request-view.js";
import { toolCardRows } from "../../../src/ui/render/tool-card-rows.js";
import { toolCardViewOf } from "../../../src/ui/render/item-view.js";
import { barSegments } from "../../../src/ui/status/session-facts.js";
import { finalState, permissionFromTrace, stateAt, toolByTitle } from "./fixtures.js";
import { plainRows } from "../render/plain-rows.js";

const OPENCODE_H = "opencode-1.18.33/h-markdown-output.jsonl";
const OPENCODE_B = "opencode-1.18.33/b-shell-permission.jsonl";
const OPENCODE_G = "opencode-1.18.33/g-modes-todos-model.jsonl";
const CODEX_C2 = "codex-acp-0.16.0/c2.jsonl";
const GEMINI_G2 = "gemini-cli-0.61.0/g2.jsonl";

function frame(node: React.ReactElement): string {
  const view = render(node);
  const out = view.lastFrame() ?? "";
  view.unmount();
  return out;
}

const card = (state: SessionState, title: string | RegExp) =>
  plainRows(toolCardRows(toolCardViewOf(state, toolByTitle(state, title)), { width: 100 }));

beforeAll(() => loadRenderLibs());

describe("what each agent's tool calls show, read through its profile", () => {
  it("opencode: tool output is shown verbatim, not as markdown (`*.txt` and `__init__.py` keep their characters)", () => {
    const s = finalState(OPENCODE_H);
    const out = card(s, /printf/);
    expect(out).toContain("pattern: *.md and *.txt");
    expect(out).toContain("file: __init__.py");
    expect(out).toContain("notes*.md");
  });

  it("output with tabs (claude's Read shows line numbers) keeps every character: tabs become spaces", () => {
    const s = finalState("claude-agent-acp-0.100.0/s4-background-bash.jsonl");
    const out = card(s, /b38xlv5rg\.output$/);
    expect(out).toMatch(/^ {2}1 {7}done$/m);
    expect(out).toMatch(/^ {2}3 {7}\[exited with code 0\]$/m);
  });

  it("opencode: a shell call's output is shown once, though it comes both as content and in rawOutput", () => {
    const s = finalState(OPENCODE_B);
    const tool = toolByTitle(s, /echo hello/);
    expect(displayOf(s, tool).blocks.filter((b) => b.type === "output")).toHaveLength(1);
    const lines = card(s, /echo hello/)
      .split("\n")
      .map((l) => l.trim());
    expect(lines.filter((l) => l === "shell-ok")).toHaveLength(1);
    expect(lines.filter((l) => l === "hello")).toHaveLength(1);
  });

  it("opencode: the config option of category `mode` is the session's modes, shown in the status bar", () => {
    const s = finalState(OPENCODE_G);
    expect(s.modeConfigId).toBe("mode");
    expect(s.modes?.availableModes.map((m) => m.id)).toEqual(expect.arrayContaining(["build", "plan"]));
    expect(barSegments(s, "opencode", "/p").find((b) => b.key === "mode")?.text).toBeTruthy();
  });

  it("codex: a permission shows the command, where it runs and why, not codex's decision list", () => {
    const s = stateAt(CODEX_C2, (e) => e.type === "permission_asked");
    const permission = permissionFromTrace(CODEX_C2);
    const display = requestDisplayOf(s, permission);
    expect(display.command).toBe("echo hello");
    expect(display.cwd).toBe("${PROJECT}");
    expect(display.blocks).toEqual([{ type: "prose", text: "Allow running `echo hello` outside the sandbox?" }]);
    const out = frame(
      <PermissionPrompt
        requests={[requestViewOf({ ...s, permissions: [permission] }, permission)]}
        width={100}
        isActive={false}
        onAnswer={() => undefined}
      />,
    );
    expect(out).toContain("$ echo hello");
    expect(out).toContain("outside the sandbox?");
    expect(out).not.toContain("Proposed Amendment");
    expect(out).not.toContain("Available Decisions");
  });

  it("codex: a replayed exec named `exec_command` is titled with its command", () => {
    const s = finalState("codex-acp-0.16.0/c5.jsonl");
    const exec = Object.values(s.toolCalls).find((t) => t.title === "exec_command");
    expect(exec && displayOf(s, exec).title).toBe("sleep 1; echo tick; sleep 6; echo done");
  });

  it("gemini: a command's cwd comes out of its description text, which is shown without it", () => {
    const s = stateAt(GEMINI_G2, (e) => e.type === "permission_asked");
    const display = requestDisplayOf(s, permissionFromTrace(GEMINI_G2));
    expect(display.cwd).toBe("${PROJECT}");
    expect(display.blocks).toEqual([{ type: "prose", text: "(List files in the project root)" }]);
  });
});
