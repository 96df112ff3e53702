import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../../src/session/events.js";
import { RuleBook } from "../../../src/orchestrator/rules/rule-book.js";
import { WorkspaceCheckpoints } from "../../../src/store/checkpoint-store.js";
import { RememberedRules } from "../../../src/store/remembered-rules.js";
import { tempDir } from "../../support/run-conch.js";
import { Orchestrator } from "../../../src/orchestrator/orchestrator.js";
import { FakeAgent, flush, startWithFake } from "../fake-agent.js";

function collector() {
  const events: SessionEvent[] = [];
  return { events, sink: { append: (ev: SessionEvent) => void events.push(ev), sync: () => undefined } };
}

describe("undo and rules through the orchestrator", () => {
  it("a turn's checkpoints come from the log: undo works on a resumed session whose load the agent refused", async () => {
    const ws = tempDir("conch-ws-");
    const state = tempDir("conch-state-");
    writeFileSync(path.join(ws, "hello.txt"), "hello world\n");
    const { events, sink } = collector();
    const first = await startWithFake({ cwd: ws, sink, checkpoints: new WorkspaceCheckpoints(ws, state) });
    await first.orch.until((s) => (s.checkpoints ?? []).some((c) => c.stage === "open"));
    first.orch.send("Fix hello.txt");
    // The prompt goes out once the workspace is recorded.
    while (first.agent.prompts.length === 0) await flush();
    writeFileSync(path.join(ws, "hello.txt"), "hello ACP\n"); // the agent's own edit tool
    writeFileSync(path.join(ws, "created.txt"), ""); // a command it ran
    first.agent.respond(0);
    await first.orch.until((s) => (s.checkpoints ?? []).some((c) => c.turnId === "t1" && c.stage === "end"));
    await first.orch.shutdown();

    // gemini-cli refuses a load in the minute the session was made in: -32603 "No previous sessions found".
    const agent = new FakeAgent();
    (agent.conn as unknown as { loadSession: () => Promise<never> }).loadSession = async () => {
      throw new Error("No previous sessions found for this project.");
    };
    const second = {
      orch: new Orchestrator({
        agent: { name: "fake", command: { command: "fake", args: [] }, via: "command" },
        cwd: ws,
        policy: "ask",
        history: events,
        checkpoints: new WorkspaceCheckpoints(ws, state),
        connect: async (hooks) => {
          agent.hooks = hooks;
          return agent;
        },
      }),
    };
    await second.orch.start({ kind: "reopen", sessionId: "s1" }).catch(() => undefined);
    await second.orch.waitFor(["idle", "failed"]);
    const answer = await second.orch.planUndo();
    if (answer.kind !== "plan") throw new Error(JSON.stringify(answer));
    expect(answer.plan.files.map((f) => `${f.action} ${f.shown}`).sort()).toEqual(["delete created.txt", "restore hello.txt"]);
    const out = await second.orch.applyUndo(answer.plan);
    expect(typeof out === "string" ? out : out.skipped).toEqual([]);
    expect(readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hello world\n");
    // Paths read relative to the session's folder, known from the log though the agent never reopened the session.
    expect(second.orch.state.items.some((i) => i.kind === "notice" && /put back hello\.txt; deleted created\.txt/.test(i.text))).toBe(true);
    await second.orch.shutdown();
  });

  it("always allow writes the narrowest rule and the same call is answered by it, with the rule on the card", async () => {
    const ws = tempDir("conch-ws-");
    const store = new RememberedRules(tempDir("conch-state-"));
    const rules = new RuleBook([], store, ws);
    const { orch, agent } = await startWithFake({ cwd: ws, rules, interactive: true });
    orch.send("go");
    while (agent.prompts.length === 0) await flush();
    const first = agent.ask(1, "c1");
    await orch.until((s) => s.permissions.length === 1);
    // The fake's calls have no rawInput command: conch cannot write a narrow rule, and says so.
    orch.answerPermission("agent:1", "always");
    await first.answer;
    await orch.until((s) => s.items.some((i) => i.kind === "notice" && /cannot remember this answer/.test(i.text)));
    expect(store.read(ws).allow).toEqual([]);

    const req = {
      sessionId: "s1",
      toolCall: {
        toolCallId: "c2",
        title: "npm test",
        kind: "execute" as const,
        status: "pending" as const,
        rawInput: { command: "npm test" },
      },
      options: [
        { optionId: "yes", name: "Allow", kind: "allow_once" as const },
        { optionId: "always", name: "Always", kind: "allow_always" as const },
      ],
    };
    const second = agent.hooks.onPermission(req, "agent:2", new AbortController().signal);
    await orch.until((s) => s.permissions.length === 1);
    orch.answerPermission("agent:2", "always");
    await second;
    expect(store.read(ws).allow).toEqual(["execute(npm test)"]);
    const third = await agent.hooks.onPermission(
      { ...req, toolCall: { ...req.toolCall, toolCallId: "c3" } },
      "agent:3",
      new AbortController().signal,
    );
    expect(third).toEqual({ outcome: { outcome: "selected", optionId: "yes" } });
    expect(orch.state.toolCalls.c3.permission).toMatchObject({
      source: "rule",
      rule: { text: "execute(npm test)", from: "remembered for this project" },
    });
    const chained = agent.hooks.onPermission(
      { ...req, toolCall: { ...req.toolCall, toolCallId: "c4", rawInput: { command: "npm test; rm -rf ~" } } },
      "agent:4",
      new AbortController().signal,
    );
    await orch.until((s) => s.permissions.some((p) => p.key === "agent:4"));
    orch.answerPermission("agent:4", "yes");
    await chained;
    await orch.shutdown();
  });
});
