import { describe, expect, it } from "vitest";
import { writeResultJson } from "../../src/print/result-json.js";

// Texts a title or an agent's answer may hold, the result's own key among them.
const TEXTS = [
  "read a.txt",
  "é ✓ 😀",
  'q"uote',
  "back\\slash",
  "line\nbreak",
  "\u2028",
  '"toolCalls":[]',
  '\n  "toolCalls": []',
  "",
  'a,","kind":"x',
  "ends with a comma,",
  "{[",
];

function result(calls: number, seed: number) {
  return {
    type: "result",
    sessionId: "s1",
    agent: TEXTS[seed % TEXTS.length],
    stopReason: "end_turn",
    text: TEXTS[(seed + 3) % TEXTS.length],
    usage: null,
    context: null,
    toolCalls: Array.from({ length: calls }, (_, i) => ({
      id: `t${i}`,
      title: TEXTS[(i + seed) % TEXTS.length],
      kind: i % 3 ? "read" : null,
      status: "completed",
      durationMs: i % 4 ? i : null,
    })),
    permissionsDenied: [],
    durationMs: 5,
    exitCode: 0,
    error: null,
    warnings: [],
  };
}

describe("the result written in pieces", () => {
  for (const indent of [0, 2] as const) {
    it(`writes the bytes JSON.stringify writes (indent ${indent}), with no calls, a few, and several writes' worth`, async () => {
      for (const [seed, calls] of [0, 1, 2, 1999, 2000, 2001, 4500].entries()) {
        const r = result(calls, seed);
        const writes: string[] = [];
        await writeResultJson(r, indent, (t) => writes.push(t));
        expect(writes.join("")).toBe(`${JSON.stringify(r, null, indent || undefined)}\n`);
        if (calls > 2000) expect(writes.length).toBeGreaterThan(2);
      }
    });
  }
});

describe("the result's calls given as compact JSON lines (spooled, unparsed)", () => {
  for (const indent of [0, 2] as const) {
    it(`writes the bytes JSON.stringify writes of the calls (indent ${indent})`, async () => {
      for (const [seed, calls] of [1, 2, 2001].entries()) {
        const r = result(calls, seed);
        const lines = r.toolCalls.map((c) => JSON.stringify(c));
        // Lines of another shape than a result call's are written as JSON.stringify would, too.
        lines.push(
          '{"id":"odd","title":"x","kind":null,"status":"completed","durationMs":null,"more":{"a":[1]}}',
          '{"id":"odd","title":"x\\\\","more":"y","kind":null,"status":"completed","durationMs":1}',
          '{"id":"odd","title":"x\\"y","kind":null,"status":"completed","durationMs":1,"more":"z"}',
          '{"other":1}',
        );
        const writes: string[] = [];
        await writeResultJson({ ...r, toolCalls: Object.assign([] as object[], { compact: () => lines }) }, indent, (t) => writes.push(t));
        const expected = { ...r, toolCalls: lines.map((l) => JSON.parse(l) as object) };
        expect(writes.join("")).toBe(`${JSON.stringify(expected, null, indent || undefined)}\n`);
      }
    });
  }
});

describe("the result written as stdout takes it", () => {
  it("writes the next piece only once the last one was taken (drained), and the same bytes", async () => {
    const r = result(4500, 1);
    const writes: string[] = [];
    let release: () => void = () => undefined;
    const waits: number[] = [];
    const done = writeResultJson(
      r,
      2,
      (t) => writes.push(t),
      () => {
        waits.push(writes.length);
        return new Promise<void>((resolve) => (release = resolve));
      },
    );
    for (let piece = 1; piece <= 3; piece++) {
      await new Promise((resolve) => setImmediate(resolve));
      // One piece per wait: nothing more is queued while stdout still holds the last one.
      expect(writes).toHaveLength(piece);
      release();
    }
    await done;
    expect(waits).toEqual([1, 2, 3]);
    expect(writes.join("")).toBe(`${JSON.stringify(r, null, 2)}\n`);
  });
});
