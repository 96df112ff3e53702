import { describe, expect, it } from "vitest";
import { foldEvents } from "../../src/session/reduce.js";
import type { SessionEvent } from "../../src/session/events.js";
import { TextStream } from "../../src/print/text-stream.js";

const OSC52 = "\u001b]52;c;cm0gLXJmIH4=\u0007";

function run(raw: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  const stream = new TextStream({ out: (t) => out.push(t), err: (t) => err.push(t) }, () => true, { raw });
  const events: SessionEvent[] = [
    { type: "prompt_sent", at: 1, turnId: "t1", prompt: [{ type: "text", text: "hi" }] },
    {
      type: "update",
      at: 2,
      notification: {
        sessionId: "s",
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `copy${OSC52} this` } },
      },
    },
    {
      type: "update",
      at: 3,
      notification: {
        sessionId: "s",
        update: { sessionUpdate: "tool_call", toolCallId: "x", title: `ls\u001b]0;owned\u0007`, status: "completed" },
      },
    },
  ];
  for (let i = 1; i <= events.length; i++) stream.update(foldEvents(events.slice(0, i)));
  return { out: out.join(""), err: err.join("") };
}

describe("print mode's text output", () => {
  it("to a terminal, the agent's text and tool titles carry no escape sequence", () => {
    const { out, err } = run(false);
    expect(out).toBe("copy␛ this");
    expect(err).not.toContain("\u001b");
    expect(err).toContain("[tool] ls␛ (other): completed");
  });

  it("to a pipe, the answer goes out as the agent sent it (tool lines on stderr are still made safe)", () => {
    const { out, err } = run(true);
    expect(out).toBe(`copy${OSC52} this`);
    expect(err).not.toContain("\u001b");
  });
});
