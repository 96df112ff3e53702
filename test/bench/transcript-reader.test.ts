import { beforeAll, describe, expect, it } from "vitest";
import { landmarksOf, TranscriptReader, wholeTranscript } from "../../bench/lib/transcript-reader.mjs";
import { loadRenderLibs } from "../../src/ui/render/render-libs.js";
import { itemRows } from "../../src/ui/render/item-rows.js";
import { itemViewOf } from "../../src/ui/render/item-view.js";
import { foldEvents } from "../../src/session/reduce.js";
import type { SessionEvent } from "../../src/session/events.js";
import { TranscriptPrinter } from "../../src/ui/transcript/transcript-printer.js";

// The bench's definition of "the whole resumed transcript is in the terminal": every landmark (each
// prompt, each answer's heading) in order and the end marker exactly once, after the last of them.
// The live preview of a backlog being written shows the end long before the rest is there.

const MARKER = "ENDOFHISTORY7391";
const WIDTH = 60;
const text = (t: string) => ({ type: "text" as const, text: t });

/** A resumed session of `n` turns, each a prompt and a markdown answer under a heading; the last ends with the marker. */
function session(n: number) {
  const turns = Array.from({ length: n }, (_, i) => ({
    prompt: `Please look at the parser once more and tell me what is wrong with it (turn ${i + 1})`,
    heading: `The parser, step ${i + 1}`,
  }));
  const events: SessionEvent[] = [{ type: "session_started", at: 0, info: { sessionId: "s", cwd: "/p", agentName: "a", origin: "new" } }];
  turns.forEach((t, i) => {
    const answer = `## ${t.heading}\n\nIt reads one token too far.\n\n- **lexer**: fine\n- **parser**: off by one\n${i === n - 1 ? `\n${MARKER}\n` : ""}`;
    events.push({ type: "prompt_sent", at: 10 * i + 1, turnId: `t${i}`, prompt: [text(t.prompt)] });
    events.push({
      type: "update",
      at: 10 * i + 2,
      notification: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: text(answer) } },
    });
    events.push({ type: "prompt_response", at: 10 * i + 3, turnId: `t${i}`, response: { stopReason: "end_turn" } });
    events.push({ type: "settled", at: 10 * i + 4 });
  });
  return { state: foldEvents(events), marks: { landmarks: landmarksOf(turns), marker: MARKER } };
}

/** The transcript printer as the App runs it, each item taking 1 ms of a fake clock: what it has written, and the preview it draws under it. */
function printing(n: number) {
  const { state, marks } = session(n);
  let clock = 0;
  const printer = new TranscriptPrinter(
    (item, width) => {
      clock += 1;
      return itemRows(itemViewOf(state, item), { width });
    },
    () => clock,
  );
  const next = () => printer.plan(state, WIDTH, 5, 20);
  return { marks, next };
}

const INPUT = ["", "› ", "demo · idle"];

beforeAll(() => loadRenderLibs());

describe("the bench's reader of a resumed transcript", () => {
  it("a screen with the live preview of the end, while the backlog is still written, does not count", () => {
    const { marks, next } = printing(40);
    const first = next();
    expect(first.more).toBe(true);
    const screen = [...first.rows, ...first.preview, ...INPUT];
    expect(screen.some((r) => r.includes(MARKER))).toBe(true);
    expect(wholeTranscript(screen, marks)).toBe(false);
  });

  it("once the printer is done, the scrollback holds it all: it counts, and only then", () => {
    const { marks, next } = printing(40);
    const written: string[] = [];
    for (;;) {
      const plan = next();
      written.push(...plan.rows);
      const screen = [...written, ...plan.preview, ...INPUT];
      expect(wholeTranscript(screen, marks)).toBe(!plan.more);
      if (!plan.more) break;
    }
  });

  it("read incrementally (rows that scrolled away once, the viewport each time), it says the same", () => {
    const { marks, next } = printing(40);
    const reader = new TranscriptReader(marks);
    for (;;) {
      const plan = next();
      reader.addFinal(plan.rows);
      expect(reader.whole([...plan.preview, ...INPUT])).toBe(!plan.more);
      if (!plan.more) break;
    }
  });

  it("a prompt wrapped over rows still reads as one; a turn missing, two markers or a wrong order do not count", () => {
    const marks = {
      landmarks: landmarksOf([
        { prompt: "fix the tests now please (turn 1)", heading: "Tests, step 1" },
        { prompt: "and the build (turn 2)" },
      ]),
      marker: MARKER,
    };
    const whole = [
      "› fix the tests now",
      "  please (turn 1)",
      "",
      "Tests, step 1",
      "",
      "Done.",
      "› and the build (turn 2)",
      MARKER,
      ...INPUT,
    ];
    expect(wholeTranscript(whole, marks)).toBe(true);
    expect(
      wholeTranscript(
        whole.filter((r) => !r.includes("turn 2")),
        marks,
      ),
    ).toBe(false);
    expect(wholeTranscript([...whole, MARKER], marks)).toBe(false);
    expect(wholeTranscript([whole[6], ...whole.slice(0, 6), MARKER], marks)).toBe(false);
    expect(wholeTranscript([MARKER, ...whole.filter((r) => r !== MARKER)], marks)).toBe(false);
  });

  it("a heading of step 12 is not found in step 123", () => {
    const marks = { landmarks: landmarksOf([{ prompt: "go (turn 1)", heading: "Build, step 12" }]), marker: MARKER };
    expect(wholeTranscript(["› go (turn 1)", "Build, step 123", MARKER], marks)).toBe(false);
    expect(wholeTranscript(["› go (turn 1)", "Build, step 12", "text", MARKER], marks)).toBe(true);
  });
});
