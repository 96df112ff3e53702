import { describe, expect, it } from "vitest";
import { runPrint, type PrintIo, type PrintRunOptions } from "../../src/print/run-print.js";
import type { Orchestrator } from "../../src/orchestrator/orchestrator.js";
import { flush, startWithFake, type FakeAgent } from "../orchestrator/fake-agent.js";

// Print mode over a fake agent: what a run writes on stdout and stderr, and its exit code, when
// the agent and the disk misbehave in ways a real process cannot be made to on cue.

const opts: PrintRunOptions = { prompt: "go", outputFormat: "text", policy: "deny" };

/** Sinks that keep what a run writes. */
function sinks(): PrintIo & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    out: (t: string) => void (io.stdout += t),
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
  closeLog: () => Promise<void> = async () => undefined,
) {
  const io = sinks();
  const code = runPrint(
    { ...opts, ...run },
    {
      session: orch,
      open: async () => undefined,
      closeLog,
      agent: { name: "fake", command: { command: "fake", args: [] }, via: "command" },
    },
    io,
  );
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
