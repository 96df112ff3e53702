import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "ink-testing-library";
import type { SessionEvent, SessionEventInput } from "../../src/session/events.js";
import { FollowedSession } from "../../src/orchestrator/follow/followed-session.js";
import { AttachApp } from "../../src/ui/attach/attach-app.js";
import { plain, tick, until } from "./fake-session.js";

const sessions: FollowedSession[] = [];
afterEach(() => {
  cleanup();
  for (const s of sessions.splice(0)) s.dispose();
});

let at = Date.now();
const ev = (e: SessionEventInput): SessionEvent => ({ ...e, at: at++ }) as SessionEvent;
const update = (u: object): SessionEvent => ev({ type: "update", notification: { sessionId: "s1", update: u as never } });

describe("the attach view", () => {
  it("draws the followed log as it grows, with terminal panes, says who writes it, and takes no input", async () => {
    const session = new FollowedSession("/tmp/project");
    sessions.push(session);
    session.apply([
      ev({ type: "session_started", info: { sessionId: "s1", cwd: "/tmp/project", agentName: "fake", origin: "new" } }),
      ev({ type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "build it" }] }),
      update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Building now." } }),
    ]);
    const view = render(<AttachApp session={session} sessionId="s1" writer={{ kind: "live", pid: 4242 }} frameMs={0} />);
    const frame = () => plain(view.lastFrame());
    await until(() => expect(frame()).toContain("Building now."));
    expect(frame()).toContain("live: conch pid 4242 runs this session");
    expect(frame()).toContain("attached to s1, read-only · q quits");
    // The running conch's keys are not this view's.
    expect(frame()).not.toContain("esc to cancel");
    session.apply([
      update({
        sessionUpdate: "tool_call",
        toolCallId: "c1",
        title: "make",
        kind: "execute",
        status: "in_progress",
        rawInput: { command: "make" },
      }),
      ev({ type: "terminal_started", terminalId: "term-1", command: "make", args: [], cwd: "/tmp/project" }),
      update({ sessionUpdate: "tool_call_update", toolCallId: "c1", content: [{ type: "terminal", terminalId: "term-1" }] }),
      ev({ type: "terminal_output", terminalId: "term-1", data: "compiling 3 files\r\n" }),
    ]);
    await until(() => expect(frame()).toMatch(/╭─ make/));
    await until(() => expect(frame()).toContain("compiling 3 files"));
    view.stdin.write("x");
    await tick();
    expect(frame()).not.toContain("› x");
    view.rerender(<AttachApp session={session} sessionId="s1" writer={{ kind: "gone", pid: 4242 }} frameMs={0} />);
    await until(() => expect(frame()).toContain("ended: conch pid 4242 has exited"));
  });
});
