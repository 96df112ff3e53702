import { beforeAll, describe, expect, it } from "vitest";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { foldEvents } from "../../../src/session/reduce.js";
import type { SessionEvent } from "../../../src/session/events.js";
import type { TranscriptItem } from "../../../src/session/state.js";
import { TranscriptPrinter } from "../../../src/ui/transcript/transcript-printer.js";
import { liveRows } from "../../../src/ui/transcript/live-rows.js";

const text = (t: string) => ({ type: "text" as const, text: t });
const rowsOf = (item: TranscriptItem) => [`${item.kind}:${"text" in item ? item.text : "toolCallId" in item ? item.toolCallId : item.id}`];
const update = (at: number, u: Record<string, unknown>): SessionEvent => ({
  type: "update",
  at,
  notification: { sessionId: "s", update: u as never },
});

/** A session: a prompt, a background call, the answer after it, and the turn still draining. */
function session(extra: SessionEvent[] = []) {
  return foldEvents([
    { type: "session_started", at: 0, info: { sessionId: "s", cwd: "/p", agentName: "a", origin: "new" } },
    { type: "prompt_sent", at: 1, turnId: "t1", prompt: [text("go")] },
    update(2, { sessionUpdate: "tool_call", toolCallId: "bg", title: "sleep 9", kind: "execute", status: "in_progress" }),
    update(3, { sessionUpdate: "agent_message_chunk", content: text("Started it.") }),
    { type: "prompt_response", at: 4, turnId: "t1", response: { stopReason: "end_turn" } },
    ...extra,
  ]);
}

beforeAll(() => loadRenderLibs());

/** A session of `n` prompts, each answered with nothing. */
function unansweredTurns(n: number) {
  const events: SessionEvent[] = [{ type: "session_started", at: 0, info: { sessionId: "s", cwd: "/p", agentName: "a", origin: "new" } }];
  for (let i = 0; i < n; i++) {
    events.push({ type: "prompt_sent", at: 10 * i + 1, turnId: `t${i}`, prompt: [text(`p${i}`)] });
    events.push({ type: "prompt_response", at: 10 * i + 2, turnId: `t${i}`, response: { stopReason: "end_turn" } });
    events.push({ type: "settled", at: 10 * i + 3 });
  }
  return foldEvents(events);
}

/** A printer whose clock ticks once per item drawn, so a slice's budget counts items. */
function countingPrinter() {
  let clock = 0;
  return new TranscriptPrinter(
    (item) => {
      clock += 1;
      return rowsOf(item);
    },
    () => clock,
  );
}

describe("the transcript is printed in its true order", () => {
  it("an item that settles late keeps its place: what follows it stays live until it settles", () => {
    const printer = new TranscriptPrinter((item) => rowsOf(item));
    const running = printer.plan(session(), 80, 1000, 10);
    expect(running.rows).toEqual(["", "turn:i1", "user:go"]);
    expect(running.live.map(rowsOf).flat()).toEqual(["tool:bg", "agent:Started it."]);
    const done = printer.plan(
      session([update(5, { sessionUpdate: "tool_call_update", toolCallId: "bg", status: "completed" }), { type: "settled", at: 6 }]),
      80,
      1000,
      10,
    );
    expect(done.rows).toEqual(["", "tool:bg", "", "agent:Started it."]);
    expect(done.live).toEqual([]);
  });

  it("a call conch closed itself (rejected) no longer holds back the reply that followed it", () => {
    const s = foldEvents([
      { type: "session_started", at: 0, info: { sessionId: "s", cwd: "/p", agentName: "a", origin: "new" } },
      { type: "prompt_sent", at: 1, turnId: "t1", prompt: [text("rm")] },
      {
        type: "permission_asked",
        at: 2,
        key: "agent:0",
        request: {
          sessionId: "s",
          toolCall: { toolCallId: "x", title: "rm -f a", kind: "execute", _meta: { terminal_info: { terminal_id: "x" } } },
          options: [{ optionId: "no", name: "No", kind: "reject_once" }],
        },
      },
      { type: "permission_answered", at: 3, key: "agent:0", outcome: { outcome: "selected", optionId: "no" }, source: "user" },
      update(4, { sessionUpdate: "agent_message_chunk", content: text("Understood.") }),
    ]);
    const plan = new TranscriptPrinter((item) => rowsOf(item)).plan(s, 80, 1000, 10);
    expect(plan.rows.filter(Boolean)).toEqual(["turn:i1", "user:rm", "tool:x"]);
    expect(plan.live.map(rowsOf).flat()).toEqual(["agent:Understood."]);
  });

  it("a long backlog goes out in slices, with the newest rows shown live meanwhile", () => {
    const s = unansweredTurns(50);
    const printer = countingPrinter();
    const first = printer.plan(s, 80, 10, 4);
    expect(first.more).toBe(true);
    expect(first.preview).toHaveLength(4);
    // Each prompt was answered with nothing: its turn ends with the line that says so.
    expect(first.preview).toContain("user:p49");
    expect(first.preview.at(-1)).toMatch(/^no_reply:/);
    const all = [...first.rows];
    for (let plan = printer.plan(s, 80, 10, 4); ; plan = printer.plan(s, 80, 10, 4)) {
      all.push(...plan.rows);
      if (!plan.more) break;
    }
    expect(all.filter((r) => r.startsWith("user:"))).toEqual(Array.from({ length: 50 }, (_, i) => `user:p${i}`));
  });

  it("a plan with no budget (a render during a backlog) writes nothing and shows the same preview; the slices after it lose nothing", () => {
    const s = unansweredTurns(20);
    const printer = countingPrinter();
    const items = printer.waiting(s);
    expect(items).toBe(s.items.length);
    const sliced = printer.plan(s, 80, 5, 4);
    expect(printer.waiting(s)).toBeLessThan(items);
    const render = printer.plan(s, 80, 0, 4);
    expect(render.rows).toEqual([]);
    expect(render.more).toBe(true);
    expect(render.preview).toEqual(sliced.preview);
    const all = [...sliced.rows];
    for (let plan = printer.plan(s, 80, 5, 4); ; plan = printer.plan(s, 80, 5, 4)) {
      all.push(...plan.rows);
      if (!plan.more) break;
    }
    expect(printer.waiting(s)).toBe(0);
    const whole = new TranscriptPrinter((item) => rowsOf(item)).plan(s, 80, 1000, 4);
    expect(whole.more).toBe(false);
    expect(all).toEqual(whole.rows);
  });

  it("a backlog's first preview can be drawn ahead, an item a call, newest first; the frame then draws nothing and shows the same rows", () => {
    const s = unansweredTurns(20);
    const drawn: string[] = [];
    const printer = new TranscriptPrinter((item) => {
      drawn.push(rowsOf(item)[0]);
      return rowsOf(item);
    });
    let calls = 0;
    while (printer.drawPreviewItem(s, 80, 4)) {
      calls++;
      expect(drawn).toHaveLength(calls);
    }
    expect(calls).toBeGreaterThan(1);
    // Newest first: the last item of the transcript is drawn first.
    expect(drawn[0]).toBe(rowsOf(s.items.at(-1)!)[0]);
    const frame = printer.plan(s, 80, 0, 4);
    expect(drawn).toHaveLength(calls);
    expect(frame.preview).toEqual(countingPrinter().plan(s, 80, 0, 4).preview);
    // The rows drawn ahead are the ones printed: nothing is drawn twice, and nothing is lost.
    const all: string[] = [];
    for (let plan = printer.plan(s, 80, 1000, 4); ; plan = printer.plan(s, 80, 1000, 4)) {
      all.push(...plan.rows);
      if (!plan.more) break;
    }
    expect(drawn).toHaveLength(s.items.length);
    expect(all).toEqual(new TranscriptPrinter((item) => rowsOf(item)).plan(s, 80, 1000, 4).rows);
  });
});

describe("the live region", () => {
  it("keeps the newest rows that fit and counts the rows above", () => {
    const items: TranscriptItem[] = [
      { kind: "agent", id: "a", turnId: "t", text: "x", history: false },
      { kind: "agent", id: "b", turnId: "t", text: "y", history: false },
    ];
    const rows = (item: TranscriptItem) => Array.from({ length: 5 }, (_, i) => `${item.id}${i}`);
    expect(liveRows(items, rows, 6)).toEqual({ rows: ["b0", "b1", "b2", "b3", "b4"], hidden: 7 });
    expect(liveRows(items, rows, 20).hidden).toBe(0);
  });
});

describe("a long answer goes to the scrollback while it streams", () => {
  it("its finished part is printed once, the live region draws only the rest, and the end follows with nothing twice", async () => {
    const { RowCache } = await import("../../../src/ui/transcript/row-cache.js");
    const cache = new RowCache();
    const words = Array.from({ length: 40 }, (_, i) => `line ${i} of the answer`);
    const at = (n: number, done = false) =>
      foldEvents([
        { type: "session_started", at: 0, info: { sessionId: "s", cwd: "/p", agentName: "a", origin: "new" } },
        { type: "prompt_sent", at: 1, turnId: "t1", prompt: [text("go")] },
        update(2, { sessionUpdate: "agent_message_chunk", content: text(words.slice(0, n).join("\n")) }),
        ...(done ? [{ type: "prompt_response", at: 3, turnId: "t1", response: { stopReason: "end_turn" } } as SessionEvent] : []),
      ]);
    let state = at(5);
    const printer = new TranscriptPrinter(
      (item, width) => cache.settled(item, state, { width, expanded: false }),
      undefined,
      (item, width) => cache.stable(item, width),
    );
    const printed: string[] = [];
    const live = (s: typeof state) => {
      const plan = printer.plan(s, 80, 1000, 10);
      printed.push(...plan.rows);
      const rowsOf = (item: TranscriptItem) => cache.live(item, s, { width: 80, expanded: false }).slice(printer.printedRowsOf(item));
      return liveRows(plan.live, rowsOf, 100, (item) => printer.printedRowsOf(item) > 0).rows;
    };
    expect(live(state)).toEqual(["", ...words.slice(0, 5)]);
    state = at(30);
    const shown = live(state);
    // Printed already: all but the open tail; the live region goes on from there, without a blank row.
    const answerPrinted = printed.filter((r) => r.startsWith("line "));
    expect(answerPrinted.length).toBeGreaterThan(15);
    expect([...answerPrinted, ...shown]).toEqual(words.slice(0, 30));
    state = at(40, true);
    expect(live(state)).toEqual([]);
    expect(printed.filter((r) => r.startsWith("line "))).toEqual(words);
  });
});
