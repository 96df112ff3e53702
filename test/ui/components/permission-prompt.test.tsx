import React from "react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { renderKeyed as render } from "../render-keyed.js";
import type { PendingPermission } from "../../../src/session/state.js";
import { PermissionPrompt } from "../../../src/ui/components/permission-prompt.js";
import { requestViewOf } from "../../../src/ui/render/request-view.js";
import { optionKeys } from "../../../src/ui/decisions/permission-options.js";
import { CLAUDE_S3, CODEX_C2, GEMINI_G3, permissionFromTrace, stateAt, tick } from "./fixtures.js";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { until } from "../fake-session.js";

// The App loads these after its first frame; a component drawn alone needs them first.
beforeAll(() => loadRenderLibs());

const DOWN = "\u001B[B";
const UP = "\u001B[A";
const ENTER = "\r";
const ESC = "\u001B";

// The codex c2 request (an execute with an argv command) and the claude s3 Edit request, queued.
const state = stateAt(CODEX_C2, (e) => e.type === "permission_asked");
const codex = permissionFromTrace(CODEX_C2, 0);
const claudeEdit = permissionFromTrace(CLAUDE_S3, 0);
const queue = [codex, claudeEdit];

// A new file of 200 lines: a diff taller than any screen.
const big: PendingPermission = {
  ...claudeEdit,
  request: {
    ...claudeEdit.request,
    toolCall: {
      ...claudeEdit.request.toolCall,
      title: "Write big.txt",
      content: [
        {
          type: "diff",
          path: "/tmp/big.txt",
          oldText: null,
          newText: Array.from({ length: 200 }, (_, i) => `new line ${i + 1}`).join("\n"),
        },
      ],
    },
  },
};

function prompt(onAnswer = vi.fn(), permissions = queue, isActive = true) {
  const view = render(
    <PermissionPrompt requests={permissions.map((p) => requestViewOf(state, p))} width={90} isActive={isActive} onAnswer={onAnswer} />,
  );
  return { view, onAnswer };
}

describe("PermissionPrompt", () => {
  it("shows the first request's command, cwd and options, and how many more wait", () => {
    const { view } = prompt();
    const frame = view.lastFrame() ?? "";
    expect(frame).toContain("$ echo hello");
    expect(frame).not.toContain("/bin/bash");
    expect(frame).toContain("in ${PROJECT}");
    expect(frame).toMatch(/1 y\s+Yes, proceed/);
    expect(frame).toMatch(/2 a\s+Yes, and don't ask again/);
    expect(frame).toMatch(/3 n\s+No, and tell Codex/);
    expect(frame).toContain("1 more waiting");
    expect(frame).not.toContain("line two");
    view.unmount();
  });

  it("answers with the option of the pressed key", async () => {
    for (const [key, optionId] of [
      ["y", "approved"],
      ["a", "approved-execpolicy-amendment"],
      ["n", "abort"],
      ["3", "abort"],
      ["1", "approved"],
    ] as const) {
      const { view, onAnswer } = prompt();
      await tick();
      view.stdin.write(key);
      await tick();
      expect(onAnswer).toHaveBeenCalledTimes(1);
      expect(onAnswer).toHaveBeenCalledWith(codex.key, optionId);
      view.unmount();
    }
  });

  it("moves the selection with the arrows and answers with Enter", async () => {
    const { view, onAnswer } = prompt();
    await tick();
    expect(view.lastFrame()).toMatch(/› 1 y\s+Yes, proceed/);
    view.stdin.write(DOWN);
    await tick();
    view.stdin.write(DOWN);
    await tick();
    view.stdin.write(UP);
    await tick();
    expect(view.lastFrame()).toMatch(/› 2 a\s+Yes, and don't ask again/);
    view.stdin.write(ENTER);
    await tick();
    expect(onAnswer).toHaveBeenCalledWith(codex.key, "approved-execpolicy-amendment");
    view.unmount();
  });

  it("keys typed faster than the prompt redraws move from where the last key left the cursor", async () => {
    const { view, onAnswer } = prompt();
    await tick();
    view.stdin.write(DOWN);
    view.stdin.write(DOWN);
    view.stdin.write(UP);
    view.stdin.write(ENTER);
    await until(() => expect(onAnswer).toHaveBeenCalled());
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer).toHaveBeenCalledWith(codex.key, "approved-execpolicy-amendment");
    view.unmount();
  });

  it("Esc answers nothing (it cancels the turn in the shell), and an inactive prompt ignores keys", async () => {
    const { view, onAnswer } = prompt();
    await tick();
    view.stdin.write(ESC);
    await tick(60);
    expect(onAnswer).not.toHaveBeenCalled();
    view.unmount();
    const inactive = prompt(vi.fn(), queue, false);
    await tick();
    inactive.view.stdin.write("y");
    await tick();
    expect(inactive.onAnswer).not.toHaveBeenCalled();
    inactive.view.unmount();
  });

  it("after the first is answered the next one shows, with its diff, starting on Allow", async () => {
    const onAnswer = vi.fn();
    const { view } = prompt(onAnswer);
    await tick();
    view.stdin.write("y");
    await tick();
    view.rerender(<PermissionPrompt requests={[requestViewOf(state, claudeEdit)]} width={90} isActive onAnswer={onAnswer} />);
    await tick();
    const frame = view.lastFrame() ?? "";
    expect(frame).toContain("Edit hello.txt");
    expect(frame).toMatch(/1\s+- line two/);
    expect(frame).toMatch(/1 \+ line 2 \(edited by the fake model\)/);
    expect(frame).not.toContain("more waiting");
    // claude lists "Always Allow" first; the cursor still starts on the one-time "Allow".
    expect(frame).toMatch(/› 2 y\s+Allow/);
    view.stdin.write(ENTER);
    await tick();
    expect(onAnswer).toHaveBeenLastCalledWith(claudeEdit.key, "allow");
    expect(onAnswer).toHaveBeenCalledTimes(2);
    view.unmount();
  });

  it("a key held down answers a request once, not again before it leaves", async () => {
    const { view, onAnswer } = prompt();
    await tick();
    view.stdin.write("y");
    view.stdin.write("y");
    await tick();
    expect(onAnswer).toHaveBeenCalledTimes(1);
    view.unmount();
  });

  it("gemini g3: a new-file write shows its path and diff", () => {
    const write = permissionFromTrace(GEMINI_G3, 1);
    const { view } = prompt(vi.fn(), [write]);
    const frame = view.lastFrame() ?? "";
    expect(frame).toContain("Writing to test_hello.py");
    expect(frame).toContain("+ from hello import main");
    view.unmount();
  });

  it("a big diff is cut so the prompt fits its rows, its title and options still shown", () => {
    const view = render(<PermissionPrompt requests={[requestViewOf(state, big)]} width={90} maxRows={20} isActive onAnswer={vi.fn()} />);
    const lines = (view.lastFrame() ?? "").split("\n");
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(lines.join("\n")).toContain("Write big.txt");
    // The diff gives up its last lines (its first changes stay), and says how many.
    expect(lines.join("\n")).toMatch(/… \d+ more lines/);
    expect(lines.join("\n")).toContain("new line 1");
    expect(lines.join("\n")).toMatch(/› 2 y\s+Allow/);
    expect(lines.at(-2)).toContain("↑↓ select · enter confirm");
    view.unmount();
  });

  it("shows the agent's title and option names without the escape sequences in them", () => {
    const hostile: PendingPermission = {
      ...codex,
      options: codex.options.map((o, i) => (i === 0 ? { ...o, name: "Yes\u001b]0;owned\u0007 please" } : o)),
      request: { ...codex.request, toolCall: { ...codex.request.toolCall, title: "echo \u001b[2Jhi" } },
    };
    const { view } = prompt(vi.fn(), [hostile]);
    const frame = view.lastFrame() ?? "";
    expect(frame).not.toContain("\u001b]0;");
    expect(frame).not.toContain("\u001b[2J");
    expect(frame).toContain("Yes␛ please");
    view.unmount();
  });

  it("an option name that fills its row exactly goes on under itself, with no space before the next word (40 columns)", () => {
    const view = render(<PermissionPrompt requests={[requestViewOf(state, codex)]} width={40} isActive onAnswer={vi.fn()} />);
    const rows = (view.lastFrame() ?? "").split("\n");
    // "No, and tell Codex what to do" fills the option's 29 cells; the hint fills the prompt's 36.
    expect(rows, rows.join("\n")).toContain("│   3 n  No, and tell Codex what to do │");
    expect(rows, rows.join("\n")).toContain(`${"│        differently".padEnd(39)}│`);
    view.unmount();
  });

  describe("on a small screen, the question, the command and the options first", () => {
    const draw = (props: Partial<React.ComponentProps<typeof PermissionPrompt>> & { width: number; maxRows: number }, requests = [codex]) =>
      render(<PermissionPrompt requests={requests.map((p) => requestViewOf(state, p))} isActive onAnswer={vi.fn()} {...props} />);
    const rowsOf = (view: ReturnType<typeof draw>) => (view.lastFrame() ?? "").split("\n");
    // The demo's four options, as most agents name theirs.
    const short: PendingPermission = {
      ...codex,
      options: [
        { optionId: "once", name: "Allow once", kind: "allow_once" },
        { optionId: "always", name: "Always allow", kind: "allow_always" },
        { optionId: "no", name: "Reject", kind: "reject_once" },
        { optionId: "never", name: "Always reject", kind: "reject_always" },
      ],
    };

    it("leaves out its border and hints before its question and command (40 columns, 8 rows)", () => {
      const view = draw({ width: 40, maxRows: 8, below: "  esc cancels the turn · tab types a message instead" }, [short]);
      const rows = rowsOf(view);
      expect(rows.length, rows.join("\n")).toBeLessThanOrEqual(8);
      expect(rows[0]).toContain("Permission");
      expect(rows[0]).toContain("echo hello");
      expect(rows.join("\n")).toContain("$ echo hello");
      expect(rows.join("\n")).toMatch(/› 1 y\s+Allow once/);
      expect(rows.join("\n")).toMatch(/4 r\s+Always reject/);
      expect(rows.join("\n")).not.toContain("╭");
      view.unmount();
    });

    it("cuts the rest of the request with a row saying so, and puts the options in a few rows (60 columns, 5 rows)", () => {
      const view = draw({ width: 60, maxRows: 5 }, [short, claudeEdit]);
      const rows = rowsOf(view);
      expect(rows.length, rows.join("\n")).toBeLessThanOrEqual(5);
      expect(rows[0]).toContain("Permission");
      expect(rows[1]).toContain("$ echo hello");
      expect(rows[2]).toMatch(/⋮ \d+ more lines? of the request/);
      const options = rows.slice(3).join(" ");
      expect(options).toMatch(/› 1 y Allow once +2 a Always allow +3 n Reject +4 r +Always reject/);
      view.unmount();
    });

    it("says how many more requests wait while it has the row", () => {
      const view = draw({ width: 60, maxRows: 9 }, [short, claudeEdit]);
      expect(rowsOf(view).join("\n")).toContain("1 more waiting");
      view.unmount();
    });

    it("a big diff gives way to the title and the options, with a row saying how much is cut", () => {
      const view = draw({ width: 40, maxRows: 7 }, [big]);
      const rows = rowsOf(view);
      expect(rows.length, rows.join("\n")).toBeLessThanOrEqual(7);
      expect(rows[0]).toContain("Write big.txt");
      expect(rows.join("\n")).toMatch(/more lines? of the request|… \d+ more lines/);
      expect(rows.join("\n")).toMatch(/› 2 y\s+Allow/);
      view.unmount();
    });

    it("away from the prompt, keeps the words for getting back to it", () => {
      const view = draw({ width: 60, maxRows: 6, below: "  tab back to the permission prompt", keepBelow: true, isActive: false }, [short]);
      const rows = rowsOf(view);
      expect(rows.length, rows.join("\n")).toBeLessThanOrEqual(6);
      expect(rows[0]).toContain("Permission");
      expect(rows.at(-1)).toContain("tab back to the permission prompt");
      view.unmount();
    });

    it("with room, is drawn whole in its border, the rows under it included", () => {
      const view = draw({ width: 90, maxRows: 40, preferRows: 30, below: "  esc cancels the turn" });
      const rows = rowsOf(view);
      expect(rows[0]).toContain("╭");
      expect(rows.join("\n")).toContain("in ${PROJECT}");
      expect(rows.at(-2)).toContain("╰");
      expect(rows.at(-1)).toContain("esc cancels the turn");
      view.unmount();
    });
  });

  it("gives letters to the first option of each kind", () => {
    expect(optionKeys(claudeEdit.options)).toEqual([
      { digit: "1", letter: "a" },
      { digit: "2", letter: "y" },
      { digit: "3", letter: "n" },
    ]);
  });
});
