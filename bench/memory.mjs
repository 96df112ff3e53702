#!/usr/bin/env node
// memory: transcript memory. 10,000 messages (user prompts, agent answers streamed in chunks,
// tool calls with their updates and output) folded through an Orchestrator on a scripted agent;
// reports the heap retained after global.gc() (node --expose-gc; the script re-runs itself with it).
// Goal: <= 100 MB.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { log, metric, numOpt, parseArgs, report, round } from "./lib/common.mjs";
import { memKiB } from "./lib/proc.mjs";

if (typeof global.gc !== "function") {
  const r = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}

const args = parseArgs();
const RUNS = numOpt(args, "runs", 3, 1);
const MESSAGES = numOpt(args, "messages", 10_000, 10_000);
const { startOrchestrator, playTurns } = await import("./lib/drive.mjs");
const { rng } = await import("./lib/session-gen.mjs");

/**
 * Turns of four transcript messages each: the user's prompt, an answer streamed in chunks, a tool
 * call (pending → in_progress → completed with output), and a closing answer.
 */
function* messageTurns(messages, seed) {
  const r = rng(seed);
  const words = "the a to of and in is that for it with as on this be file test function return value error change code".split(" ");
  const text = (n) => Array.from({ length: n }, () => r.pick(words)).join(" ");
  let turn = 0;
  let tool = 0;
  const stream = (t, s) => {
    const messageId = `m${turn}-${t.length}`;
    for (let i = 0; i < s.length; i += 24)
      t.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: s.slice(i, i + 24) }, messageId });
  };
  for (let m = 0; m < messages; m += 4) {
    const u = [];
    stream(u, `${text(r.int(40, 120))}\n\n`);
    const id = `call_${++tool}`;
    u.push({
      sessionUpdate: "tool_call",
      toolCallId: id,
      title: `Run npm test -- ${r.pick(words)}`,
      kind: "execute",
      status: "pending",
      rawInput: { command: "npm test" },
    });
    u.push({ sessionUpdate: "tool_call_update", toolCallId: id, status: "in_progress" });
    u.push({
      sessionUpdate: "tool_call_update",
      toolCallId: id,
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: Array.from({ length: r.int(3, 20) }, () => text(8)).join("\n") } }],
    });
    stream(u, text(r.int(20, 60)));
    turn++;
    yield { prompt: text(r.int(5, 30)), updates: u };
  }
}

/** Plays turns made one at a time, so the input is garbage once consumed and only conch's copy stays. */
async function playGenerated(orch, agent, turns, stats) {
  let i = 0;
  const t0 = performance.now();
  for (const t of turns) {
    stats.updates += t.updates.length;
    stats.textChars +=
      t.prompt.length + t.updates.reduce((a, u) => a + (u.content?.text?.length ?? 0) + (u.content?.[0]?.content?.text?.length ?? 0), 0);
    await playTurns(orch, agent, [t]);
    if (++i % 500 === 0) log(`memory: ${i} turns, ${orch.state.items.length} items, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
}

function heapMiB() {
  global.gc();
  global.gc();
  return process.memoryUsage().heapUsed / 1048576;
}

const results = [];
for (let run = 0; run < RUNS; run++) {
  const stats = { updates: 0, textChars: 0 };
  const before = heapMiB();
  const { orch, agent } = await startOrchestrator();
  const t0 = performance.now();
  await playGenerated(orch, agent, messageTurns(MESSAGES, 11 + run), stats);
  const ms = performance.now() - t0;
  const { updates, textChars } = stats;
  const after = heapMiB();
  const items = orch.state.items.length;
  const kinds = {};
  for (const i of orch.state.items) kinds[i.kind] = (kinds[i.kind] ?? 0) + 1;
  results.push({ retained: after - before, ms, updates, items, textChars, rss: (memKiB(process.pid)?.hwm ?? NaN) / 1024, kinds });
  log(
    `memory: run ${run + 1}/${RUNS}: ${updates} updates → ${items} items in ${ms.toFixed(0)} ms; retained ${(after - before).toFixed(1)} MiB`,
  );
  // Keep the orchestrator alive until measured, then stop it so the next run starts clean.
  await orch.shutdown();
}
const r0 = results[0];
report(args, {
  bench: "memory",
  title: `${MESSAGES} transcript messages through an Orchestrator, heap retained after gc`,
  metrics: [
    metric({
      name: `retained heap, ${MESSAGES} messages`,
      unit: "MiB",
      values: results.map((r) => r.retained),
      goal: { op: "<=", value: 100 },
    }),
    metric({ name: "retained heap per message", unit: "KiB", values: results.map((r) => (r.retained * 1024) / MESSAGES) }),
    metric({
      name: "retained bytes per character of text",
      unit: "B/char",
      values: results.map((r) => (r.retained * 1048576) / r.textChars),
    }),
    metric({ name: "time to fold (through the Orchestrator)", unit: "ms", values: results.map((r) => r.ms) }),
    metric({ name: "process peak RSS", unit: "MiB", values: results.map((r) => r.rss) }),
  ],
  notes: [
    `${r0.updates} session/update notifications, ${round(r0.textChars / 1e6, 2)} M characters of text, ${r0.items} transcript items (${Object.entries(
      r0.kinds,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")})`,
  ],
});
