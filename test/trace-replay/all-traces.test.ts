import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTrace, processCount, type EofPolicy } from "../../src/demo/trace-replay/load-trace.js";
import { classifyMessage } from "../../src/demo/trace-replay/jsonrpc.js";
import { substitutePlaceholders } from "../../src/demo/trace-replay/placeholders.js";
import { playRecordedClient, settlesSoon, startReplay, TEST_VALUES, TRACES_DIR, traceFiles } from "./recorded-client.js";

/** What the traces README says each agent does when its stdin is closed. */
function documentedEofPolicy(file: string): EofPolicy {
  return file.startsWith("claude-agent-acp-0.23.1/") || file.startsWith("codex-acp-") ? "ignore" : "exit";
}

const cases = await Promise.all(
  traceFiles().map(async (file) => {
    const trace = await loadTrace(join(TRACES_DIR, file));
    return Array.from({ length: processCount(trace) }, (_, i) => ({ file, trace, process: i + 1 }));
  }),
).then((lists) => lists.flat());

describe("replay of every recorded trace", () => {
  it("finds the traces, including the multi-process ones", () => {
    expect(cases.length).toBeGreaterThanOrEqual(28);
    const multi = cases.filter((c) => c.process > 1).map((c) => c.file);
    expect(new Set(multi)).toEqual(
      new Set([
        "claude-agent-acp-0.23.1/s6-load-session.jsonl",
        "claude-agent-acp-0.100.0/s6-load-session.jsonl",
        "codex-acp-0.16.0/c5.jsonl",
        "codex-acp-2.6.0/c5.jsonl",
        "codex-acp-2.6.0/c5.latency.jsonl",
        "codex-acp-2.6.0/c5-unfinished.jsonl",
        "gemini-cli-0.61.0/g5.jsonl",
        "opencode-1.18.33/f-load.jsonl",
      ]),
    );
  });

  for (const paced of [true, false]) {
    const mode = paced ? "paced client" : "client sends everything at once";
    describe(mode, () => {
      it.each(cases)("$file process $process: agent lines as recorded, ids re-keyed", async ({ trace, process }) => {
        const harness = startReplay(trace, { process });
        const segment = harness.agent.segment;
        const expected = await playRecordedClient(segment, harness, TEST_VALUES, paced);
        await expect(harness.agent.finished).resolves.toBe("complete");

        // Byte-level: same content and field order as recorded.
        expect(harness.collector.lines).toEqual(expected.map((msg) => JSON.stringify(msg)));
        const surprises = harness.logs.filter((l) => l.event === "unknown-request" || l.event === "unmapped-response-id");
        expect(surprises).toEqual([]);

        const recordedAnswers = segment.entries.flatMap((e) =>
          e.dir === "client" && classifyMessage(e.msg)?.kind === "response" ? [substitutePlaceholders(e.msg, TEST_VALUES)] : [],
        );
        expect(harness.agent.clientAnswers.map((a) => a.actual)).toEqual(recordedAnswers);
        expect(harness.agent.clientAnswers.map((a) => a.recorded)).toEqual(recordedAnswers);
        harness.agent.stop();
      });
    });
  }

  it.each(cases)("$file process $process: stdin EOF handled as recorded", async ({ file, trace, process }) => {
    const harness = startReplay(trace, { process });
    const segment = harness.agent.segment;
    expect(segment.eofPolicy).toBe(documentedEofPolicy(file));
    await playRecordedClient(segment, harness, TEST_VALUES, true);
    harness.input.end();
    await harness.agent.stdinClosed;
    if (segment.eofPolicy === "exit") {
      await expect(harness.agent.exited).resolves.toEqual({ code: 0, reason: "stdin-closed" });
    } else {
      expect(await settlesSoon(harness.agent.exited)).toBe(false);
      harness.agent.stop();
      await expect(harness.agent.exited).resolves.toEqual({ code: null, reason: "stopped" });
    }
  });
});
