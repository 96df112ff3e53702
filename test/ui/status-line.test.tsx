import { describe, expect, it } from "vitest";
import { render } from "ink-testing-library";
import { StatusLine } from "../../src/ui/components/status-line.js";
import { describeStatus, formatElapsed } from "../../src/ui/status/status-text.js";
import { FakeSession, plain } from "./fake-session.js";

const ctx = { agentName: "demo" };

describe("the status line text per phase", () => {
  it("says the agent is starting, and how a failed start can be fixed", () => {
    const s = new FakeSession();
    expect(describeStatus(s.state, ctx)).toMatchObject({ busy: true, text: "starting demo…" });
    s.emit({ type: "failed", kind: "agent-start", message: "could not start agent demo: ENOENT", stderrTail: "line 1\nline 2\n" });
    const failed = describeStatus(s.state, ctx);
    expect(failed).toMatchObject({ busy: false, tone: "error", text: "could not start agent demo: ENOENT", detail: ["line 1", "line 2"] });
    expect(failed!.hints[0]).toBe("/restart to try again");
  });

  it("shows nothing when idle", () => {
    expect(describeStatus(new FakeSession().open().state, ctx)).toBeNull();
  });

  it("prompting: working, or waiting for permission with the count", () => {
    const s = new FakeSession().open();
    s.prompt("go");
    expect(describeStatus(s.state, ctx)).toMatchObject({ busy: true, text: "working", hints: ["esc to cancel"] });
    s.askPermission("k1", "c1", "rm -rf build");
    s.askPermission("k2", "c2", "rm -rf dist");
    expect(describeStatus(s.state, ctx)).toMatchObject({ text: "waiting for permission (2)", tone: "warning" });
  });

  it("draining: what the turn still waits on, and the detach key when a message is queued", () => {
    const s = new FakeSession().open();
    const t = s.prompt("go");
    s.update({ sessionUpdate: "tool_call", toolCallId: "bg", title: "sleep 3", kind: "execute", status: "in_progress" });
    s.respond(t);
    expect(describeStatus(s.state, ctx)).toMatchObject({ text: "1 background task running: sleep 3", hints: ["esc to cancel"] });
    s.emit({ type: "queue_added", id: "q1", text: "next" });
    expect(describeStatus(s.state, ctx)!.hints).toContain("ctrl-d send next now");
  });

  it("cancelling, replaying and failed", () => {
    const s = new FakeSession().open();
    s.prompt("go");
    s.emit({ type: "cancel_requested" });
    expect(describeStatus(s.state, ctx)).toMatchObject({ text: "cancelling…" });
    const r = new FakeSession();
    r.emit({ type: "replay_started" });
    expect(describeStatus(r.state, ctx)).toMatchObject({ text: "loading history…" });
    const f = new FakeSession().open();
    f.emit({ type: "agent_exited", code: 1, signal: null, stderrTail: "Error: boom\n    at main", expected: false });
    // The transcript holds the exit and its stderr tail: the status line points there, it does not repeat them.
    expect(f.state.items.at(-1)).toMatchObject({ kind: "notice", text: "agent exited with code 1\nError: boom\n    at main" });
    expect(describeStatus(f.state, ctx)).toMatchObject({
      tone: "error",
      text: expect.stringMatching(/ stopped \(see above\)$/),
      detail: [],
      hints: ["/restart to start the agent again"],
    });
    const g = new FakeSession().open();
    g.emit({ type: "failed", message: "could not open the session", stderrTail: "Error: boom" });
    expect(describeStatus(g.state, ctx)).toMatchObject({ tone: "error", text: "could not open the session", detail: ["Error: boom"] });
  });

  it("offers Ctrl-T when a client terminal runs, except while it has the keys", () => {
    const s = new FakeSession().open();
    s.prompt("go");
    expect(describeStatus(s.state, { ...ctx, runningTerminal: true })!.hints).toEqual(["esc to cancel", "ctrl-t focus terminal"]);
    expect(describeStatus(s.state, { ...ctx, runningTerminal: true, terminalFocused: true })!.hints).toEqual([]);
  });

  it("formats elapsed time", () => {
    expect(formatElapsed(4_200)).toBe("4s");
    expect(formatElapsed(65_000)).toBe("1m 05s");
    expect(formatElapsed(2 * 3600_000 + 3 * 60_000)).toBe("2h 03m");
  });
});

describe("the status line", () => {
  it("draws the text, the elapsed time and the hints", () => {
    const { lastFrame } = render(
      <StatusLine
        view={{ busy: true, tone: "normal", text: "working", detail: [], hints: ["esc to cancel"], since: Date.now() - 3_000 }}
        width={80}
      />,
    );
    expect(plain(lastFrame())).toMatch(/working · 3s · esc to cancel/);
  });

  it("draws a failure with its stderr lines", () => {
    const { lastFrame } = render(
      <StatusLine
        view={{
          busy: false,
          tone: "error",
          text: "agent exited with code 1",
          detail: ["Error: boom"],
          hints: ["/restart to start the agent again"],
        }}
        width={80}
      />,
    );
    const frame = plain(lastFrame());
    expect(frame).toContain("✗ agent exited with code 1\n  Error: boom\n  /restart to start the agent again");
  });
});
