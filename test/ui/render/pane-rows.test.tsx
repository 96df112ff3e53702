import { describe, expect, it, vi } from "vitest";
import { Text } from "ink";
import { render } from "ink-testing-library";
import { DisplayTerminal } from "../../../src/terminals/display-terminal.js";
import { inkColor } from "../../../src/ui/render/screen-colors.js";
import { useSessionState } from "../../../src/ui/hooks/use-session-state.js";
import { paneRows } from "../../../src/ui/render/pane-rows.js";
import type { TerminalAccess } from "../../../src/terminals/terminal-access.js";
import type { SessionPort } from "../../../src/ui/session-port.js";
import { sizeRunningTerminals } from "../../../src/ui/transcript/pane-sizes.js";
import { FakeSession } from "../fake-session.js";
import { atColorLevel, plainRows, sgr } from "./plain-rows.js";

describe("a terminal pane's rows", () => {
  it("shows what was written to a display terminal, in its colours, then its exit status", async () => {
    const term = new DisplayTerminal("call_1", { cwd: "/work/project", cols: 38, rows: 5 });
    const pane = () => paneRows(term, { rows: 5, width: 40, title: "echo hello" });
    expect(plainRows(pane())).toContain("echo hello");
    expect(plainRows(pane())).toContain("/work/project");
    term.write("hello\n\u001b[31mred line\u001b[0m\n");
    await term.flush();
    const lines = plainRows(pane()).split("\n");
    expect(lines).toContain(`│red line${" ".repeat(30)}│`);
    expect(lines[1]).toBe(`│hello${" ".repeat(33)}│`);
    expect(lines[0]).not.toContain("exit");
    expect(atColorLevel(1, pane).find((r) => r.includes("red line"))).toContain(`${sgr("31")}red line`);
    term.exit(0, null);
    await term.flush();
    expect(plainRows(pane())).toContain("exit 0");
  });

  it("keeps the blank lines a command printed, live and finished, as they came (codex 0.16 c5: tick, two blank lines, done)", async () => {
    const term = new DisplayTerminal("call_c4_exec", { cols: 38, rows: 10 });
    const body = () =>
      plainRows(paneRows(term, { rows: 10, width: 40, title: "sleep 1; echo tick; sleep 6; echo done" }))
        .split("\n")
        .slice(1, -1)
        .map((row) => row.slice(1, -1).trimEnd());
    term.write("tick\n");
    await term.flush();
    expect(body()).toEqual(["tick"]);
    term.write("\n\n");
    await term.flush();
    expect(body()).toEqual(["tick", "", ""]);
    term.write("done\n");
    await term.flush();
    expect(body()).toEqual(["tick", "", "", "done"]);
    term.exit(0, null);
    await term.flush();
    expect(body()).toEqual(["tick", "", "", "done"]);
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
      const out = plainRows(paneRows(term, { rows: 3, width: 40, focused: true, title: "make" }));
      expect(out).toContain(label);
      expect(out).toContain("boom");
    }
  });

  it("shows the last rows, or earlier ones when scrolled", async () => {
    const term = new DisplayTerminal("t", { cols: 38, rows: 4 });
    term.write(Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n"));
    await term.flush();
    const tail = plainRows(paneRows(term, { rows: 4, width: 40 }));
    expect(tail).toContain("line 20");
    expect(tail).toContain("line 17");
    expect(tail).not.toContain("line 16");
    const scrolled = plainRows(paneRows(term, { rows: 4, width: 40, scrollOffset: 10 }));
    expect(scrolled).toContain("line 10");
    expect(scrolled).not.toContain("line 20");
    expect(scrolled).toContain("↑10");
  });

  it("shows a finished command's whole output when it fits, not only its last rows", async () => {
    const term = new DisplayTerminal("t", { cols: 38, rows: 4 });
    term.write(["==> build", "compiling 10 modules", "[##########] 100%", "warning: unused", "build ok"].join("\r\n"));
    term.exit(0, null);
    await term.flush();
    const rows = plainRows(paneRows(term, { rows: 20, width: 40 })).split("\n");
    expect(rows.slice(1, -1).map((r) => r.slice(1, -1).trimEnd())).toEqual([
      "==> build",
      "compiling 10 modules",
      "[##########] 100%",
      "warning: unused",
      "build ok",
    ]);
  });

  it("shows a long finished output as head and tail around a count of the hidden lines", async () => {
    const term = new DisplayTerminal("t", { cols: 38, rows: 4 });
    term.write(Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\r\n"));
    term.exit(1, null);
    await term.flush();
    const inside = plainRows(paneRows(term, { rows: 20, width: 60 }))
      .split("\n")
      .slice(1, -1)
      .map((r) => r.slice(1, -1).trimEnd());
    expect(inside).toHaveLength(20);
    expect(inside[0]).toBe("line 1");
    expect(inside.at(-1)).toBe("line 100");
    const marker = inside.findIndex((r) => r.startsWith("…"));
    const shown = inside.length - 1;
    expect(inside[marker]).toBe(`… ${100 - shown} lines hidden (Ctrl-R/export shows all)`);
    expect(inside[marker - 1]).toBe(`line ${marker}`);
    expect(inside[marker + 1]).toBe(`line ${100 - (inside.length - marker - 2)}`);
  });

  it("maps palette indexes and RGB colours to colour names the rows can paint", () => {
    expect(inkColor(1)).toBe("red");
    expect(inkColor(9)).toBe("redBright");
    expect(inkColor(208)).toBe("ansi256(208)");
    expect(inkColor("#ff8800")).toBe("#ff8800");
    expect(inkColor(undefined)).toBeUndefined();
  });
});

/** A session port whose terminal service shows the given terminals. */
function portWith(session: FakeSession, terminals: DisplayTerminal[]): SessionPort {
  const access: TerminalAccess = {
    get: (id: string) => terminals.find((t) => t.id === id),
    write: () => undefined,
    onScreenChange: (fn: () => void) => {
      const offs = terminals.map((t) => t.onScreenChange(fn));
      return () => offs.forEach((off) => off());
    },
  };
  return Object.assign(session, { terminals: access });
}

function accessTo(terminals: DisplayTerminal[]): TerminalAccess {
  return { get: (id) => terminals.find((t) => t.id === id), write: () => undefined, onScreenChange: () => () => undefined };
}

describe("running terminals on screen", () => {
  it("coalesces a flood of output into a few redraws of its pane", async () => {
    const term = new DisplayTerminal("t", { cols: 38, rows: 5 });
    const port = portWith(new FakeSession().open(), [term]);
    function Pane() {
      useSessionState(port);
      return <Text>{paneRows(term, { rows: 5, width: 40 }).join("\n")}</Text>;
    }
    const view = render(<Pane />);
    const before = view.frames.length;
    for (let i = 0; i < 200; i++) term.write(`tick ${i}\n`);
    await term.flush();
    await vi.waitFor(() => expect(view.lastFrame()).toContain("tick 199"));
    expect(view.frames.length - before).toBeLessThan(20);
    view.unmount();
  });

  it("a running terminal is resized to the pane it is drawn in: in a card, on its own, or focused", () => {
    const s = new FakeSession().open();
    s.emit({ type: "terminal_started", terminalId: "card", command: "make", args: [], cwd: "/tmp/project" });
    s.emit({ type: "terminal_started", terminalId: "loose", command: "npm test", args: [], cwd: "/tmp/project" });
    s.emit({ type: "terminal_started", terminalId: "done", command: "ls", args: [], cwd: "/tmp/project" });
    s.emit({ type: "terminal_exited", terminalId: "done", exitCode: 0, signal: null });
    s.update({
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      title: "make",
      kind: "execute",
      status: "in_progress",
      content: [{ type: "terminal", terminalId: "card" }],
    });
    // Stand-ins for this conch's own PTYs (a display terminal's screen, a client terminal's kind).
    const terms = ["card", "loose", "done"].map((id) =>
      Object.defineProperty(new DisplayTerminal(id, { cols: 80, rows: 24 }), "kind", { value: "client" }),
    );
    const [card, loose, done] = terms;
    sizeRunningTerminals(s.state, accessTo(terms), 50, undefined);
    // A card indents its pane by two cells; every pane has a border of one cell a side.
    expect([card.screen.cols, card.screen.rows]).toEqual([46, 10]);
    expect([loose.screen.cols, loose.screen.rows]).toEqual([48, 6]);
    // A finished command's screen is history: it is not reflowed.
    expect([done.screen.cols, done.screen.rows]).toEqual([80, 24]);
    sizeRunningTerminals(s.state, accessTo(terms), 50, { id: "card", rows: 20 });
    expect([card.screen.cols, card.screen.rows]).toEqual([48, 20]);
    // A command another conch runs (attach), rebuilt from its log: the log says its size.
    const replay = new DisplayTerminal("card", { cols: 116, rows: 10 });
    sizeRunningTerminals(s.state, accessTo([replay]), 50, undefined);
    expect([replay.screen.cols, replay.screen.rows]).toEqual([116, 10]);
  });
});
