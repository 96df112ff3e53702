import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionEvent } from "../../../src/session/events.js";
import { foldEvents } from "../../../src/session/reduce.js";
import type { SessionState } from "../../../src/session/state.js";
import { itemViewOf, type ItemView } from "../../../src/ui/render/item-view.js";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { setColorLevel, type ColorLevel } from "../../../src/ui/render/style.js";
import { RowCache } from "../../../src/ui/transcript/row-cache.js";
import { RowFarm } from "../../../src/ui/transcript/row-farm.js";
import type { RowLook } from "../../../src/ui/transcript/row-protocol.js";
import { rng } from "../../support/seeded-random.js";
import { allTraces, traceToEvents } from "../../support/trace-events.js";

// The row thread draws a resumed backlog's rows: they go to the scrollback as the main thread's
// own would, so they must be the same strings, byte for byte, for every kind of item, width and look.

const WORDS = ["parser", "token", "lexer", "state", "queue", "frame", "résumé", "日本語", "emoji 🎉", "path/to/file.ts", "x".repeat(40)];
const CODE: Record<string, string[]> = {
  ts: ["const next = tokens[i];", 'if (!next) return fail("eof");', "export function go(a: number): string {", "  return `${a}`;", "}"],
  py: ["def go(a):", "    return [x for x in a if x]", "# a comment"],
  sh: ["npm test -- --run", 'echo "$HOME" | wc -c'],
  rust: ["fn main() {", '    println!("{}", 1);', "}"],
  "": ["plain text in a fence", "\ttabbed"],
};

/** A seeded markdown answer: headings, inline styles, lists, quotes, tables, fenced code in several languages. */
function answer(r: ReturnType<typeof rng>): string {
  const sentence = () => Array.from({ length: r.int(3, 30) }, () => r.pick(WORDS)).join(" ");
  const parts = [`${"#".repeat(r.int(1, 3))} ${sentence()}`, `${sentence()} **${r.pick(WORDS)}** *${r.pick(WORDS)}* \`${r.pick(WORDS)}\`.`];
  if (r() < 0.5) parts.push(Array.from({ length: r.int(1, 4) }, (_, i) => `${r() < 0.5 ? "-" : `${i + 1}.`} ${sentence()}`).join("\n"));
  if (r() < 0.3) parts.push(`> ${sentence()}\n> ${sentence()}`);
  if (r() < 0.3) parts.push(`| a | b |\n| --- | :-: |\n| ${r.pick(WORDS)} | ${sentence()} |`);
  if (r() < 0.6) {
    const lang = r.pick(Object.keys(CODE));
    parts.push(`\`\`\`${lang}\n${Array.from({ length: r.int(1, 6) }, () => r.pick(CODE[lang])).join("\n")}\n\`\`\``);
  }
  if (r() < 0.1) parts.push("---");
  return parts.join("\n\n");
}

const update = (at: number, u: Record<string, unknown>): SessionEvent =>
  ({ type: "update", at, notification: { sessionId: "s", update: u } }) as SessionEvent;
const text = (t: string) => ({ type: "text" as const, text: t });

/** A seeded session of `turns` turns: thoughts, answers, plans, tool calls with output or diffs, some failed. */
function seededSession(seed: number, turns: number): SessionState {
  const r = rng(seed);
  const events: SessionEvent[] = [
    { type: "session_started", at: 0, info: { sessionId: "s", cwd: "/p", agentName: "demo", origin: "new" } },
  ];
  let at = 1;
  for (let t = 1; t <= turns; t++) {
    const turnId = `t${t}`;
    events.push({ type: "prompt_sent", at: at++, turnId, prompt: [text(`${r.pick(WORDS)} ${r.pick(WORDS)} (turn ${t})`)] });
    if (r() < 0.5)
      events.push(update(at++, { sessionUpdate: "agent_thought_chunk", content: text(`**Thinking** about ${r.pick(WORDS)}\nand more`) }));
    if (r() < 0.2)
      events.push(
        update(at++, {
          sessionUpdate: "plan",
          entries: [
            { content: r.pick(WORDS), priority: "high", status: "completed" },
            { content: r.pick(WORDS), priority: "low", status: "pending" },
          ],
        }),
      );
    if (r() < 0.5) {
      const id = `call_${t}`;
      const edit = r() < 0.5;
      const file = `/p/src/${r.pick(["a", "b", "c"])}.ts`;
      events.push(
        update(at++, {
          sessionUpdate: "tool_call",
          toolCallId: id,
          title: edit ? `edit ${file}` : "npm test",
          kind: edit ? "edit" : "execute",
          status: "pending",
          rawInput: { path: file },
          locations: [{ path: file }],
        }),
      );
      const lines = (n: number) => Array.from({ length: n }, (_, i) => `${i} ${r.pick(WORDS)}`).join("\n");
      events.push(
        update(at++, {
          sessionUpdate: "tool_call_update",
          toolCallId: id,
          status: r() < 0.2 ? "failed" : "completed",
          content: edit
            ? [{ type: "diff", path: file, oldText: lines(r.int(1, 8)), newText: lines(r.int(1, 8)) }]
            : [{ type: "content", content: text(lines(r.int(1, 30))) }],
          rawOutput: { exitCode: 0 },
        }),
      );
    }
    events.push(update(at++, { sessionUpdate: "agent_message_chunk", content: text(answer(r)) }));
    events.push({ type: "prompt_response", at: at++, turnId, response: { stopReason: r() < 0.1 ? "cancelled" : "end_turn" } });
    events.push({ type: "settled", at: at++ });
  }
  return foldEvents(events);
}

/** Every item of the state with its view. */
const viewsOf = (state: SessionState): { state: SessionState; view: ItemView }[] =>
  state.items.map((item) => ({ state, view: itemViewOf(state, item) }));

/** The rows the farm sends back for `views`, once all have arrived. */
async function farmRows(farm: RowFarm, views: ItemView[], look: RowLook): Promise<(string[] | "pending" | undefined)[]> {
  farm.ask(views, look);
  for (;;) {
    const got = views.map((view) => farm.take(view, look));
    if (!got.includes("pending")) return got;
    await new Promise<void>((resolve) => farm.whenDrawn(resolve));
  }
}

let farm: RowFarm;
beforeAll(async () => {
  await loadRenderLibs();
  farm = new RowFarm();
});
afterAll(() => farm.close());

describe("the row thread", () => {
  const corpus = [...viewsOf(seededSession(7, 160)), ...allTraces().flatMap((rel) => viewsOf(foldEvents(traceToEvents(rel))))];

  it.each<[ColorLevel, RowLook]>([
    [2, { width: 100, expanded: false, links: false }],
    [3, { width: 37, expanded: true, links: true }],
    [1, { width: 12, expanded: false, links: true }],
    [0, { width: 80, expanded: true, links: false }],
  ])("colour level %i, %o: every item's rows are the main thread's, byte for byte", async (level, look) => {
    const before = setColorLevel(level);
    try {
      // Each look is a fresh set of views for the farm (views are asked once per look).
      const rows = await farmRows(
        farm,
        corpus.map((c) => c.view),
        look,
      );
      const cache = new RowCache();
      const expected = corpus.map(({ state, view }) => cache.settled(view.item, state, look));
      expect(rows.every(Array.isArray)).toBe(true);
      expect(rows).toEqual(expected);
      expect(corpus.length).toBeGreaterThan(1000);
      if (level > 0) expect(expected.flat().some((row) => row.includes("\u001b["))).toBe(true);
    } finally {
      setColorLevel(before);
    }
  });

  it("rows asked at one width and then another come at the width asked last; dropped ones are drawn here", async () => {
    const views = viewsOf(seededSession(11, 40)).map((c) => c.view);
    const wide = { width: 90, expanded: false, links: false };
    const narrow = { width: 30, expanded: false, links: false };
    farm.ask(views, wide);
    farm.drop();
    expect(farm.take(views[0], wide)).toBeUndefined();
    const rows = await farmRows(farm, views, narrow);
    expect(rows.every(Array.isArray)).toBe(true);
    expect(farm.take(views[0], wide)).toBeUndefined();
  });

  it("the bundled worker (what bin/conch.js runs) draws the same rows", async () => {
    const bundled = path.resolve(__dirname, "../../../dist/bundle/row-worker.js");
    expect(existsSync(bundled)).toBe(true);
    const own = new RowFarm(() => bundled);
    const before = setColorLevel(2);
    try {
      const sample = viewsOf(seededSession(3, 60));
      const look = { width: 72, expanded: false, links: true };
      const rows = await farmRows(
        own,
        sample.map((c) => c.view),
        look,
      );
      const cache = new RowCache();
      expect(rows).toEqual(sample.map(({ state, view }) => cache.settled(view.item, state, look)));
    } finally {
      setColorLevel(before);
      own.close();
    }
  });
});
