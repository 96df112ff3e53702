import React from "react";
import { describe, expect, it, vi } from "vitest";
import { render } from "ink-testing-library";
import { DisplayTerminal } from "../../../src/terminals/display-terminal.js";
import { TerminalPane } from "../../../src/ui/components/terminal-pane.js";
import { inkColor } from "../../../src/ui/components/screen-colors.js";
import { tick } from "./fixtures.js";

describe("TerminalPane", () => {
  it("shows what was written to a display terminal, then its exit status", async () => {
    const term = new DisplayTerminal("call_1", { cwd: "/work/project", cols: 38, rows: 5 });
    const view = render(<TerminalPane terminal={term} rows={5} width={40} focused={false} title="echo hello" />);
    expect(view.lastFrame()).toContain("echo hello");
    expect(view.lastFrame()).toContain("/work/project");
    term.write("hello\n\u001b[31mred line\u001b[0m\n");
    await term.flush();
    await vi.waitFor(() => expect(view.lastFrame()).toContain("red line"));
    const lines = (view.lastFrame() ?? "").split("\n");
    expect(lines[1]).toBe(`│hello${" ".repeat(33)}│`);
    expect(lines[0]).not.toContain("exit");
    term.exit(0, null);
    await vi.waitFor(() => expect(view.lastFrame()).toContain("exit 0"));
    view.unmount();
  });

  it("shows a failing exit code and a signal", async () => {
    for (const [code, signal, label] of [
      [1, null, "exit 1"],
      [null, "SIGTERM", "SIGTERM"],
    ] as const) {
      const term = new DisplayTerminal("t", { cols: 38 });
      term.write("boom\n");
      term.exit(code, signal);
      await term.flush();
      await tick(10);
      const view = render(<TerminalPane terminal={term} rows={3} width={40} focused title="make" />);
      expect(view.lastFrame()).toContain(label);
      expect(view.lastFrame()).toContain("boom");
      view.unmount();
    }
  });

  it("shows the last rows, or earlier ones when scrolled", async () => {
    const term = new DisplayTerminal("t", { cols: 38, rows: 4 });
    term.write(Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n"));
    await term.flush();
    const tail = render(<TerminalPane terminal={term} rows={4} width={40} focused={false} />);
    expect(tail.lastFrame()).toContain("line 20");
    expect(tail.lastFrame()).toContain("line 17");
    expect(tail.lastFrame()).not.toContain("line 16");
    tail.unmount();
    const scrolled = render(<TerminalPane terminal={term} rows={4} width={40} focused={false} scrollOffset={10} />);
    expect(scrolled.lastFrame()).toContain("line 10");
    expect(scrolled.lastFrame()).not.toContain("line 20");
    expect(scrolled.lastFrame()).toContain("↑10");
    scrolled.unmount();
  });

  it("resizes a running terminal to the pane's inner size", () => {
    const term = new DisplayTerminal("t", { cols: 80, rows: 24 });
    const view = render(<TerminalPane terminal={term} rows={6} width={50} focused={false} />);
    expect(term.screen.cols).toBe(48);
    expect(term.screen.rows).toBe(6);
    view.unmount();
  });

  it("coalesces a flood of output into a few redraws", async () => {
    const term = new DisplayTerminal("t", { cols: 38, rows: 5 });
    const view = render(<TerminalPane terminal={term} rows={5} width={40} focused={false} />);
    const before = view.frames.length;
    for (let i = 0; i < 200; i++) term.write(`tick ${i}\n`);
    await term.flush();
    await vi.waitFor(() => expect(view.lastFrame()).toContain("tick 199"));
    expect(view.frames.length - before).toBeLessThan(20);
    view.unmount();
  });

  it("maps palette indexes and RGB colours to Ink colours", () => {
    expect(inkColor(1)).toBe("red");
    expect(inkColor(9)).toBe("redBright");
    expect(inkColor(208)).toBe("ansi256(208)");
    expect(inkColor("#ff8800")).toBe("#ff8800");
    expect(inkColor(undefined)).toBeUndefined();
  });
});
