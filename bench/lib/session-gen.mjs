// Realistic synthetic sessions: turns of streamed thoughts and answers, tool calls that go
// pending → in_progress → completed with output or a diff, plans worked through, and a usage
// meter at each turn's end. Deterministic (seeded), so every run measures the same session.

const WORDS =
  "the a to of and in is that for it with as on this be by are we can file test function return value error change code line module build type import config update call result should when each new into from then".split(
    " ",
  );
const CODE = [
  "const x = compute(input);",
  "if (!ok) return fail(reason);",
  "for (const item of items) total += item.size;",
  "export function parse(text: string): Node[] {",
  "  return lines.map((l) => l.trim());",
  "await writeFile(path, body, 'utf8');",
  "expect(result).toEqual({ ok: true });",
  "}",
];

/** A small seeded PRNG (mulberry32). */
export function rng(seed = 42) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  next.pick = (arr) => arr[Math.floor(next() * arr.length)];
  return next;
}

function sentence(r, words = r.int(6, 16)) {
  const w = [];
  for (let i = 0; i < words; i++) w.push(r.pick(WORDS));
  const s = w.join(" ");
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
}

/** Splits text into chunks of about `size` characters, as a model streams them. */
function chunks(text, r, lo = 8, hi = 40) {
  const out = [];
  for (let i = 0; i < text.length;) {
    const n = r.int(lo, hi);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

function answerText(r) {
  const parts = [];
  const paragraphs = r.int(1, 3);
  for (let p = 0; p < paragraphs; p++) {
    parts.push(Array.from({ length: r.int(2, 4) }, () => sentence(r)).join(" "));
    if (r() < 0.3) parts.push(Array.from({ length: r.int(2, 4) }, () => `- ${sentence(r, r.int(3, 8))} \`${r.pick(WORDS)}\``).join("\n"));
    if (r() < 0.15) parts.push(`\`\`\`ts\n${Array.from({ length: r.int(2, 6) }, () => r.pick(CODE)).join("\n")}\n\`\`\``);
  }
  return `${parts.join("\n\n")}\n\n`;
}

function outputText(r, lines) {
  return Array.from({ length: lines }, (_, i) => `${String(i + 1).padStart(3)}  ${r.pick(CODE)}`).join("\n");
}

const KINDS = ["read", "edit", "execute", "search"];

/**
 * Turns whose updates add up to `updates`. Each turn: `{ prompt, updates: SessionUpdate[] }`.
 * `marker` is appended to the very last answer, so a screen can tell when the end is drawn.
 */
export function generateTurns({ updates = 10_000, seed = 7, marker } = {}) {
  const r = rng(seed);
  const turns = [];
  let total = 0;
  let tool = 0;
  let used = 0;
  for (let t = 0; ; t++) {
    const u = [];
    const msg = (text, kind = "agent_message_chunk") => {
      const messageId = `m${t}-${u.length}`;
      for (const c of chunks(text, r)) u.push({ sessionUpdate: kind, content: { type: "text", text: c }, messageId });
    };
    if (r() < 0.5) msg(Array.from({ length: r.int(1, 3) }, () => sentence(r)).join(" "), "agent_thought_chunk");
    msg(answerText(r));
    const plan =
      t % 4 === 0
        ? Array.from({ length: r.int(3, 5) }, () => ({ content: sentence(r, r.int(3, 7)), priority: "medium", status: "pending" }))
        : undefined;
    if (plan) u.push({ sessionUpdate: "plan", entries: plan.map((e) => ({ ...e })) });
    const tools = r.int(0, 3);
    for (let k = 0; k < tools; k++) {
      const id = `call_${++tool}`;
      const kind = r.pick(KINDS);
      const file = `src/${r.pick(WORDS)}/${r.pick(WORDS)}.ts`;
      u.push({
        sessionUpdate: "tool_call",
        toolCallId: id,
        title: kind === "execute" ? `npm test -- ${r.pick(WORDS)}` : `${kind} ${file}`,
        kind,
        status: "pending",
        rawInput: kind === "execute" ? { command: `npm test -- ${r.pick(WORDS)}` } : { path: file },
        locations: [{ path: file }],
      });
      u.push({ sessionUpdate: "tool_call_update", toolCallId: id, status: "in_progress" });
      if (plan && k < plan.length) {
        plan[k].status = "in_progress";
        u.push({ sessionUpdate: "plan", entries: plan.map((e) => ({ ...e })) });
      }
      const content =
        kind === "edit"
          ? [{ type: "diff", path: file, oldText: outputText(r, r.int(3, 12)), newText: outputText(r, r.int(3, 12)) }]
          : [{ type: "content", content: { type: "text", text: outputText(r, r.int(2, 25)) } }];
      u.push({ sessionUpdate: "tool_call_update", toolCallId: id, status: "completed", content, rawOutput: { exitCode: 0 } });
      if (plan && k < plan.length) {
        plan[k].status = "completed";
        u.push({ sessionUpdate: "plan", entries: plan.map((e) => ({ ...e })) });
      }
    }
    if (tools) msg(answerText(r));
    used = (used + r.int(500, 3000)) % 200_000;
    u.push({ sessionUpdate: "usage_update", used, size: 200_000, cost: { amount: Math.round(used * 300) / 1e8, currency: "USD" } });
    if (total + u.length >= updates) break;
    turns.push({ prompt: `${sentence(r, r.int(4, 14))} (turn ${t + 1})`, updates: u });
    total += u.length;
  }
  // A last short answer makes the total exact; it ends with the marker, if any.
  const rest = updates - total;
  const last = [];
  const text = answerText(r).repeat(4);
  for (let i = 0; last.length < rest - (marker ? 1 : 0); i += 24)
    last.push({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: text.slice(i % text.length, (i % text.length) + 24) || "." },
      messageId: "m-last",
    });
  if (marker) last.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `\n\n${marker}\n` }, messageId: "m-last" });
  turns.push({ prompt: `And finally, sum it up. (turn ${turns.length + 1})`, updates: last });
  return turns;
}

/** Counts of each update kind, for a report. */
export function mixOf(turns) {
  const mix = {};
  for (const t of turns) for (const u of t.updates) mix[u.sessionUpdate] = (mix[u.sessionUpdate] ?? 0) + 1;
  return mix;
}

const TOPICS = [
  "the parser",
  "the cache",
  "the build",
  "error handling",
  "the config loader",
  "the test suite",
  "the CLI",
  "logging",
  "the retry loop",
  "types",
];
const LANGS = [
  ["ts", CODE],
  ["sh", ["npm test -- --run parser", "git diff --stat HEAD~1", 'rg -n "TODO" src/', "node --version"]],
  ["json", ["{", '  "name": "demo",', '  "version": "1.0.0",', '  "scripts": { "test": "vitest" }', "}"]],
];

/** A markdown answer as a model writes one: a heading, prose with emphasis and inline code, a list, a fenced code block, a closing line; and its heading's text. */
function markdownAnswer(r, t) {
  const topic = r.pick(TOPICS);
  const heading = `${topic[0].toUpperCase()}${topic.slice(1)}, step ${t + 1}`;
  const [lang, lines] = r.pick(LANGS);
  const code = Array.from({ length: r.int(4, 10) }, () => r.pick(lines)).join("\n");
  const list = Array.from({ length: r.int(2, 4) }, () => `- **${r.pick(WORDS)}**: ${sentence(r, r.int(4, 9))} \`${r.pick(WORDS)}()\``).join(
    "\n",
  );
  const text = `## ${heading}\n\n${sentence(r)} Look at \`src/${r.pick(WORDS)}.ts\`: *${sentence(r, r.int(3, 6))}*\n\n${list}\n\n\`\`\`${lang}\n${code}\n\`\`\`\n\n${sentence(r)} ${sentence(r)}\n`;
  return { heading, text };
}

/**
 * A long conversation: `turns` turns, each a prompt and a streamed markdown answer with a code
 * block (a thought first in half of them, a tool call with output or a diff in every third, then a
 * usage meter). `marker` ends the very last answer, so a screen can tell when the end is drawn.
 * Each turn is `{ prompt, heading, updates }`: the heading is the answer's, as text to look for.
 */
export function generateLongSession({ turns = 2000, seed = 11, marker } = {}) {
  const r = rng(seed);
  const out = [];
  let tool = 0;
  let used = 0;
  for (let t = 0; t < turns; t++) {
    const u = [];
    const msg = (text, kind = "agent_message_chunk") => {
      const messageId = `m${t}-${u.length}`;
      for (const c of chunks(text, r)) u.push({ sessionUpdate: kind, content: { type: "text", text: c }, messageId });
    };
    if (r() < 0.5) msg(sentence(r), "agent_thought_chunk");
    if (t % 3 === 2) {
      const id = `call_${++tool}`;
      const edit = r() < 0.5;
      const file = `src/${r.pick(WORDS)}/${r.pick(WORDS)}.ts`;
      u.push({
        sessionUpdate: "tool_call",
        toolCallId: id,
        title: edit ? `edit ${file}` : `npm test -- ${r.pick(WORDS)}`,
        kind: edit ? "edit" : "execute",
        status: "pending",
        rawInput: edit ? { path: file } : { command: "npm test" },
        locations: [{ path: file }],
      });
      const content = edit
        ? [{ type: "diff", path: file, oldText: outputText(r, r.int(3, 8)), newText: outputText(r, r.int(3, 8)) }]
        : [{ type: "content", content: { type: "text", text: outputText(r, r.int(3, 12)) } }];
      u.push({ sessionUpdate: "tool_call_update", toolCallId: id, status: "completed", content, rawOutput: { exitCode: 0 } });
    }
    const last = t === turns - 1;
    const answer = markdownAnswer(r, t);
    msg(answer.text + (last && marker ? `\n${marker}\n` : ""));
    used = (used + r.int(500, 3000)) % 200_000;
    u.push({ sessionUpdate: "usage_update", used, size: 200_000 });
    out.push({ prompt: `${sentence(r, r.int(4, 14))} (turn ${t + 1})`, heading: answer.heading, updates: u });
  }
  return out;
}
