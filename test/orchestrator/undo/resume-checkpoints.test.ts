import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../../src/session/events.js";
import { WorkspaceCheckpoints } from "../../../src/store/checkpoint-store.js";
import { tempDir } from "../../support/run-conch.js";
import { Orchestrator } from "../../../src/orchestrator/orchestrator.js";
import { FakeAgent, flush, startWithFake } from "../fake-agent.js";

/** The workspace's checkpoints, counting how often the workspace is snapshot (each is a few `git` runs). */
class CountedCheckpoints extends WorkspaceCheckpoints {
  snapshots = 0;
  override snapshot(): ReturnType<WorkspaceCheckpoints["snapshot"]> {
    this.snapshots++;
    return super.snapshot();
  }
}

describe("checkpoints of a resumed session", () => {
  it("shown from conch's own log, the calls of earlier runs are not snapshot again: one snapshot, when the new session opens", async () => {
    const ws = tempDir("conch-ws-");
    const state = tempDir("conch-state-");
    writeFileSync(path.join(ws, "a.txt"), "one\n");
    const events: SessionEvent[] = [];
    const sink = { append: (ev: SessionEvent) => void events.push(ev), sync: () => undefined };
    const first = await startWithFake({ cwd: ws, sink, checkpoints: new WorkspaceCheckpoints(ws, state) });
    first.orch.send("edit a.txt three times");
    while (first.agent.prompts.length === 0) await flush();
    for (const id of ["c1", "c2", "c3"]) {
      first.agent.update({ sessionUpdate: "tool_call", toolCallId: id, title: `edit a.txt (${id})`, kind: "edit", status: "in_progress" });
      writeFileSync(path.join(ws, "a.txt"), `${id}\n`);
      first.agent.update({ sessionUpdate: "tool_call_update", toolCallId: id, status: "completed" });
    }
    first.agent.respond(0);
    await first.orch.until((s) => s.phase === "idle" && s.turns.every((t) => t.endedAt !== undefined));
    await first.orch.shutdown();
    expect(events.filter((e) => e.type === "checkpoint" && e.stage === "call").length).toBeGreaterThan(0);

    // An agent that can neither load nor resume: conch shows the transcript from its own log.
    const agent = new FakeAgent();
    agent.init = { protocolVersion: 1, agentCapabilities: {} };
    const checkpoints = new CountedCheckpoints(ws, state);
    const logged: SessionEvent[] = [];
    const orch = new Orchestrator({
      agent: { name: "fake", command: { command: "fake", args: [] }, via: "command" },
      cwd: ws,
      policy: "ask",
      history: events,
      checkpoints,
      sink: { append: (ev) => void logged.push(ev), sync: () => undefined },
      connect: async (hooks) => {
        agent.hooks = hooks;
        return agent;
      },
    });
    await orch.start({ kind: "reopen", sessionId: "s1" });
    // The new session's own first snapshot, after those of the log.
    const earlier = events.filter((e) => e.type === "checkpoint").length;
    await orch.until((s) => s.info?.origin === "new" && (s.checkpoints ?? []).length > earlier);
    await orch.waitFor(["idle"]);
    expect(orch.state.items.filter((i) => i.kind === "tool")).toHaveLength(3);
    expect(checkpoints.snapshots).toBe(1);
    expect(logged.filter((e) => e.type === "checkpoint").map((e) => e.type === "checkpoint" && e.stage)).toEqual(["open"]);
    await orch.shutdown();
  });
});
