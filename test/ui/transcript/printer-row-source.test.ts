import { describe, expect, it } from "vitest";
import { foldEvents } from "../../../src/session/reduce.js";
import type { SessionEvent } from "../../../src/session/events.js";
import type { SessionState, TranscriptItem } from "../../../src/session/state.js";
import { TranscriptPrinter, type RowSource } from "../../../src/ui/transcript/transcript-printer.js";
import { rng } from "../../support/seeded-random.js";

// A backlog drawn by a row source (the row thread) while the printer writes: the scrollback gets
// the same rows in the same order as when the printer draws everything itself, each item drawn once.

const text = (t: string) => ({ type: "text" as const, text: t });
const rowsAt = (item: TranscriptItem, width: number) => [`${width}|${item.kind}:${"text" in item ? item.text : item.id}`];

function backlog(turns: number): SessionState {
  const events: SessionEvent[] = [{ type: "session_started", at: 0, info: { sessionId: "s", cwd: "/p", agentName: "a", origin: "new" } }];
  for (let i = 0; i < turns; i++) {
    events.push({ type: "prompt_sent", at: 10 * i + 1, turnId: `t${i}`, prompt: [text(`p${i}`)] });
    events.push({
      type: "update",
      at: 10 * i + 2,
      notification: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: text(`a${i}`) } },
    });
    events.push({ type: "prompt_response", at: 10 * i + 3, turnId: `t${i}`, response: { stopReason: "end_turn" } });
    events.push({ type: "settled", at: 10 * i + 4 });
  }
  return foldEvents(events);
}

/** A row source that draws what it is asked in order, `step` items whenever `deliver` is called; it counts what it drew. */
class FakeSource implements RowSource {
  queue: { item: TranscriptItem; width: number }[] = [];
  rows = new Map<TranscriptItem, { width: number; rows: string[] }>();
  drawn: TranscriptItem[] = [];
  ask(items: readonly TranscriptItem[], width: number): void {
    for (const item of items) this.queue.push({ item, width });
  }
  take(item: TranscriptItem, width: number): string[] | "pending" | undefined {
    const got = this.rows.get(item);
    if (got?.width === width) return got.rows;
    return this.queue.some((q) => q.item === item && q.width === width) ? "pending" : undefined;
  }
  deliver(step: number): void {
    for (const { item, width } of this.queue.splice(0, step)) {
      this.rows.set(item, { width, rows: rowsAt(item, width) });
      this.drawn.push(item);
    }
  }
  drop(): void {
    this.queue = [];
  }
}

/** Plans until the backlog is out; the source delivers between plans as `deliver` says. Returns the rows written. */
function printAll(printer: TranscriptPrinter, state: SessionState, width: number, between: (waiting: boolean) => void): string[] {
  const out: string[] = [];
  for (let i = 0; i < 100_000; i++) {
    const plan = printer.plan(state, width, 5, 6);
    out.push(...plan.rows);
    if (!plan.more) return out;
    between(plan.waiting);
  }
  throw new Error("the backlog never ended");
}

describe("a backlog drawn by a row source", () => {
  const state = backlog(300);
  const reference = printAll(new TranscriptPrinter(rowsAt), state, 80, () => {});

  it.each([1, 7, 31])("seed %i: the same rows in the same order, each item drawn once by the source or the printer", (seed) => {
    const r = rng(seed);
    const source = new FakeSource();
    const mine: TranscriptItem[] = [];
    let clock = 0;
    const printer = new TranscriptPrinter(
      (item, w) => {
        mine.push(item);
        clock += 1;
        return rowsAt(item, w);
      },
      () => clock,
      undefined,
      undefined,
      source,
    );
    const out = printAll(printer, state, 80, (waiting) => {
      // The source is sometimes ahead, sometimes behind: the printer either writes or draws from the back meanwhile.
      if (waiting || r() < 0.5) source.deliver(r.int(0, 40));
      clock += r.int(0, 3);
    });
    expect(out).toEqual(reference);
    expect(source.drawn.length).toBeGreaterThan(0);
    const drawnBy = [...source.drawn, ...mine];
    expect(new Set(drawnBy).size).toBe(drawnBy.length);
  });

  it("a resize mid-backlog: everything is printed again at the new width, nothing at the old one after it", () => {
    const source = new FakeSource();
    let clock = 0;
    const printer = new TranscriptPrinter(rowsAt, () => clock++, undefined, undefined, source);
    for (let i = 0; i < 5; i++) {
      printer.plan(state, 80, 5, 6);
      source.deliver(10);
    }
    printer.reset();
    source.drop();
    const out = printAll(printer, state, 50, () => source.deliver(25));
    expect(out).toEqual(printAll(new TranscriptPrinter(rowsAt), state, 50, () => {}));
    expect(out.some((row) => row.startsWith("80|"))).toBe(false);
  });

  it("a short run is drawn at once, without the source", () => {
    const source = new FakeSource();
    const printer = new TranscriptPrinter(rowsAt, undefined, undefined, undefined, source);
    const plan = printer.plan(backlog(3), 80, 1000, 6);
    expect(plan.more).toBe(false);
    expect(source.queue).toEqual([]);
  });
});
