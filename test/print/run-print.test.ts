import { describe, expect, it } from "vitest";
import { runPrint, type PrintIo, type PrintRunOptions, type PrintSession } from "../../src/print/run-print.js";
import type { Orchestrator } from "../../src/orchestrator/orchestrator.js";
import { SessionRecorder } from "../../src/orchestrator/record/session-recorder.js";
import type { SessionEvent } from "../../src/session/events.js";
import { readSessionLog } from "../../src/store/session-log.js";
import { sessionLogPath } from "../../src/store/state-dir.js";
import { flush, startWithFake, type FakeAgent } from "../orchestrator/fake-agent.js";
import { Disk, recordedSession } from "../orchestrator/record/recorded-session.js";

// Print mode over a fake agent: what a run writes on stdout and stderr, and its exit code, when
// the agent and the disk misbehave in ways a real process cannot be made to on cue.

const opts: PrintRunOptions = { prompt: "go", outputFormat: "text", policy: "deny" };

/** Sinks that keep what a run writes. */
function sinks(): PrintIo & { stdout: string; stderr: string; outWrites: number } {
  const io = {
    stdout: "",
    stderr: "",
    outWrites: 0,
    out: (t: string) => {
      io.stdout += t;
      io.outWrites++;
    },
    err: (t: string) => void (io.stderr += t),
    rawOut: true,
    onInterrupt: () => () => undefined,
  };
  return io;
}

/** Runs one prompt against an open session; `play` is the agent's side once the prompt is out. */
async function printRun(
  orch: Orchestrator,
  agent: FakeAgent,
  play: () => void | Promise<void>,
  run: Partial<PrintRunOptions> = {},
  recorder?: SessionRecorder,
) {
  const io = sinks();
  const session: PrintSession = {
    session: orch,
    open: async () => undefined,
    closeLog: async () => recorder?.close(),
    keep: async () => (recorder ? recorder.report() : { warnings: [] }),
    agent: { name: "fake", command: { command: "fake", args: [] }, via: "command" },
  };
  const code = runPrint({ ...opts, ...run }, session, io);
  while (agent.prompts.length === 0) await flush();
  await play();
  return { code: await code, io };
}

describe("one error, once", () => {
  it("an agent that dies in the middle of a burst of text: its exit and stderr tail are on stderr once", async () => {
    const { orch, agent } = await startWithFake();
    const { code, io } = await printRun(orch, agent, async () => {
      // The last chunk and the exit are handled as one batch, as when both reach conch in one read.
      agent.hooks.onBurst?.("start");
      agent.text("Let me look for the cheese...");
      agent.die(1, "demo: out of cheese");
      await flush();
    });
    expect(code).toBe(1);
    expect(io.stdout).toBe("Let me look for the cheese...\n");
    expect(io.stderr.match(/agent exited with code 1/g)).toHaveLength(1);
    expect(io.stderr.match(/out of cheese/g)).toHaveLength(1);
  });
});

describe("a full disk in the middle of a print run", () => {
  /** The agent streams, the disk fills up, the agent streams on and ends its turn. */
  const fillsUp = (agent: FakeAgent, disk: Disk) => async () => {
    agent.text("first half, ");
    await flush();
    disk.full = true;
    for (let i = 0; i < 50; i++) agent.text(`chunk ${i} `);
    await flush();
    agent.respond(0);
  };

  it("text: the answer is whole, stderr says what was not kept, and the exit code is 8, not 0", async () => {
    const disk = new Disk();
    const { orch, agent, recorder, root } = await recordedSession(disk);
    const { code, io } = await printRun(orch, agent, fillsUp(agent, disk), {}, recorder);
    expect(code).toBe(8);
    expect(io.stdout).toContain("chunk 49");
    expect(io.stderr).toMatch(/\[warning\] the session log .* cannot be written \(ENOSPC/);
    expect(io.stderr).toMatch(
      /^conch: the session log .* could not be written: the last \d+ events of this run are not saved, so --resume cannot show all of it$/m,
    );
    // What the log holds is what was written before the disk filled up: the rest is missing.
    const logged = readSessionLog<SessionEvent>(sessionLogPath(orch.state.info!.sessionId, root)).events;
    expect(logged.some((e) => e.type === "prompt_response")).toBe(false);
  });

  it("json: the result carries the warnings and exit code 8", async () => {
    const disk = new Disk();
    const { orch, agent, recorder } = await recordedSession(disk);
    const { code, io } = await printRun(orch, agent, fillsUp(agent, disk), { outputFormat: "json" }, recorder);
    expect(code).toBe(8);
    const result = JSON.parse(io.stdout);
    expect(result).toMatchObject({ stopReason: "end_turn", exitCode: 8, error: null });
    expect(result.warnings).toEqual([
      expect.stringMatching(/cannot be written \(ENOSPC/),
      expect.stringMatching(/the last \d+ events of this run are not saved/),
    ]);
    expect(io.stderr).toBe("");
  });

  it("a disk that fills up and frees again before the end: a warning, nothing lost, exit 0", async () => {
    const disk = new Disk();
    const { orch, agent, recorder } = await recordedSession(disk);
    const { code, io } = await printRun(
      orch,
      agent,
      async () => {
        agent.text("a ");
        await flush();
        disk.full = true;
        agent.text("b ");
        await flush();
        disk.full = false;
        agent.respond(0);
      },
      { outputFormat: "json" },
      recorder,
    );
    expect(code).toBe(0);
    expect(JSON.parse(io.stdout).warnings).toEqual([expect.stringMatching(/cannot be written \(ENOSPC/)]);
  });
});

describe("stream-json under a burst", () => {
  it("a burst read in one go is written in one piece: every line whole, in order, the result last", async () => {
    const { orch, agent } = await startWithFake();
    const { code, io } = await printRun(
      orch,
      agent,
      async () => {
        for (let i = 0; i < 300; i++) agent.text(`c${i} `);
        await flush();
        agent.respond(0);
      },
      { outputFormat: "stream-json" },
    );
    expect(code).toBe(0);
    const lines = io.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; delta?: string });
    expect(lines.filter((l) => l.type === "text").map((l) => l.delta)).toEqual(Array.from({ length: 300 }, (_, i) => `c${i} `));
    expect(lines.at(-1)?.type).toBe("result");
    // stdout to a pipe is a synchronous write: not one per line.
    expect(io.outWrites).toBeLessThan(10);
  });
});
