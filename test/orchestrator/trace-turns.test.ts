import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Orchestrator } from "../../src/orchestrator/orchestrator.js";
import { RegistryTerminalService } from "../../src/orchestrator/terminals/terminal-service.js";
import { describeOpenWork, openWork } from "../../src/session/open-work.js";
import { displayStatus, type SessionState } from "../../src/session/state.js";
import { REPLAY, ROOT, tempDir } from "../support/run-conch.js";
import { untilState } from "../support/until-state.js";

/**
 * conch's real orchestrator against recorded real agents: the trace-replay agent (causal mode)
 * plays each agent's exact wire behaviour as a child process over stdio.
 */
const running: Orchestrator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((o) => o.shutdown()));
});

async function start(trace: string, policy: "ask" | "approve-all" = "ask", speed = 4): Promise<Orchestrator> {
  const cwd = tempDir();
  const orch = new Orchestrator({
    agent: {
      name: "replay",
      command: {
        command: process.execPath,
        args: [REPLAY, path.resolve(ROOT, "../shared/traces", trace), "--causal", "--speed", String(speed), "--project", cwd],
      },
      via: "command",
    },
    cwd,
    policy,
    timing: { quietMs: 400, stallMs: 60_000 },
    terminals: (emit, root) => new RegistryTerminalService(emit, root),
  });
  running.push(orch);
  await orch.start();
  return orch;
}

/** Waits until `pred` holds (event-driven, bounded only as a safety net). */
const until = untilState;

const userTurn = (s: SessionState, n: number) => s.turns.filter((t) => t.origin === "user")[n];
const answered = (n: number) => (s: SessionState) => userTurn(s, n)?.stopReason !== undefined && s.phase === "idle";
const agentText = (s: SessionState, turnId: string) =>
  s.items
    .filter((i) => i.kind === "agent" && i.turnId === turnId)
    .map((i) => (i as { text: string }).text)
    .join("");

describe("the orchestrator against real agents' recorded behaviour", () => {
  it("claude 0.100.0 s4 terminal_output: stays draining until the late terminal_exit and the agent's follow-up turn; the queued prompt goes after", async () => {
    const orch = await start("claude-agent-acp-0.100.0/s4-background-bash.terminal_output.jsonl");
    orch.send("Start the background job");
    await until(orch, (s) => userTurn(s, 0)?.stopReason === "end_turn");
    orch.send("Second prompt, sent right after p1 returned");
    const draining = orch.state;
    expect(draining.phase).toBe("draining");
    expect(draining.queue).toHaveLength(1);
    // Expected: p2 is sent only after bg1's terminal exits and the agent's own follow-up turn is over.
    const s = await until(orch, answered(1));
    const bg1 = s.terminals.toolu_s4_bg1;
    expect(bg1.exited).toBe(true);
    const followUp = s.turns.find((t) => t.origin === "agent")!;
    const p2 = userTurn(s, 1);
    expect(followUp.startedAt).toBeLessThan(p2.startedAt);
    expect(agentText(s, followUp.id)).toContain("done");
    expect(agentText(s, p2.id).length).toBeGreaterThan(0);
    expect(s.queue).toHaveLength(0);
  });

  it("claude 0.100.0 s4 (no terminal meta): each background job's report is a turn of Claude's own, and the drain ends at its marker", async () => {
    const orch = await start("claude-agent-acp-0.100.0/s4-background-bash.jsonl");
    // The recorded client sent p2-p4 without waiting for the reports: here that is "send now" (detach).
    for (const [i, p] of ["Start the background job", "Second prompt", "Start another background job", "Fourth prompt"].entries()) {
      orch.sendNow(p);
      await until(orch, (st) => userTurn(st, i)?.stopReason !== undefined);
      if (i === 0) expect(describeOpenWork(openWork(orch.state), "Claude")).toContain("`sleep 3; echo done` running in the background");
    }
    const s = await until(orch, (st) => st.phase === "idle" && Object.values(st.background).every((t) => t.reportedAt !== undefined));
    for (const t of s.turns.filter((x) => x.origin === "user")) expect(t.stopReason).toBe("end_turn");
    const own = s.turns.filter((t) => t.origin === "agent");
    expect(own).toHaveLength(2);
    expect(own.every((t) => t.endedAt !== undefined)).toBe(true);
    const reads = Object.values(s.toolCalls).filter((t) => t.title.startsWith("Read "));
    expect(reads.map((t) => own.some((o) => o.id === t.turnId))).toEqual([true, true]);
  });

  it("claude 0.23.1 s4 terminal_output: the held p1 response carries the follow-up; the pane said exit 0 while the command still ran", async () => {
    const orch = await start("claude-agent-acp-0.23.1/s4-background-bash.terminal_output.jsonl");
    orch.send("Start the background job");
    const s = await until(orch, answered(0));
    const bg = Object.values(s.terminals)[0];
    expect(bg.exitCode).toBe(0);
    expect(bg.outputTail).toContain("Command running in background");
    expect(agentText(s, userTurn(s, 0).id)).toContain("done");
  });

  it("claude 0.23.1 s5: cancelling with a permission open answers it cancelled, shows the call cancelled, and ends idle", async () => {
    const orch = await start("claude-agent-acp-0.23.1/s5-cancel-permission.jsonl");
    orch.send("Create the marker file");
    await until(orch, (s) => s.permissions.length === 1);
    orch.cancel();
    const s = await until(orch, answered(0));
    expect(userTurn(s, 0).stopReason).toBe("cancelled");
    expect(Object.values(s.toolCalls).map(displayStatus)).toEqual(["cancelled"]);
    expect(s.permissions).toEqual([]);
  });

  it("codex c4-meta: one in_progress call streams tick and done into its pane, then completes", async () => {
    const orch = await start("codex-acp-0.16.0/c4-meta.jsonl", "ask", 8);
    orch.send("Run the slow command and wait for it.");
    const mid = await until(orch, (s) => Object.values(s.terminals)[0]?.outputTail.includes("tick"));
    expect(Object.values(mid.toolCalls)[0].status).toBe("in_progress");
    const s = await until(orch, answered(0));
    const term = Object.values(s.terminals)[0];
    expect(term.outputTail).toContain("done");
    expect(term.exitCode).toBe(0);
    const pane = (orch.terminals as RegistryTerminalService).registry.get(term.terminalId)!;
    // The screen parses output apart from the state: what the state holds may not be drawn yet.
    if (pane.kind === "display") await pane.flush();
    const screen = pane.screen.plainText();
    expect(screen).toContain("tick");
    expect(screen).toContain("done");
  });

  it("codex c4: a call silent for 7 s while its turn is still prompting is not stalled, and completes with its output", async () => {
    const orch = await start("codex-acp-0.16.0/c4.jsonl", "ask", 8);
    orch.send("Run the slow command and wait for it.");
    const s = await until(orch, answered(0));
    const [tool] = Object.values(s.toolCalls);
    expect(displayStatus(tool)).toBe("completed");
    expect(JSON.stringify(tool.content)).toContain("tick");
  });

  it("codex c6: cancelled turns end idle; the exec call codex never closes is shown cancelled; p3 works", async () => {
    const orch = await start("codex-acp-0.16.0/c6.jsonl", "ask", 4);
    orch.send("Write me a long essay.");
    await until(orch, (s) => s.items.some((i) => i.kind === "agent"));
    orch.cancel();
    await until(orch, answered(0));
    orch.send("Run sleep 30.");
    await until(orch, (s) => Object.values(s.toolCalls).some((t) => t.status === "in_progress"));
    orch.cancel();
    await until(orch, answered(1));
    orch.send("Never mind.");
    const s = await until(orch, answered(2));
    expect(s.turns.filter((t) => t.origin === "user").map((t) => t.stopReason)).toEqual(["cancelled", "cancelled", "end_turn"]);
    expect(Object.values(s.toolCalls).map(displayStatus)).toContain("cancelled");
  });

  it("gemini g2: a call first seen in a permission request is allowed and completes; the rejected one is shown rejected", async () => {
    const orch = await start("gemini-cli-0.61.0/g2.jsonl");
    orch.send("List the files in this project.");
    await until(orch, (s) => s.permissions.length === 1);
    const allow = orch.state.permissions[0].options.find((o) => o.kind === "allow_once")!;
    orch.answerPermission(orch.state.permissions[0].key, allow.optionId);
    await until(orch, answered(0));
    orch.send("Delete the files.");
    await until(orch, (s) => s.permissions.length === 1);
    const reject = orch.state.permissions[0].options.find((o) => o.kind === "reject_once")!;
    orch.answerPermission(orch.state.permissions[0].key, reject.optionId);
    const s = await until(orch, answered(1));
    expect(Object.values(s.toolCalls).map(displayStatus)).toEqual(["completed", "rejected"]);
    expect(s.phase).toBe("idle");
  });

  it("gemini g4: cancel with a permission open, cancel mid-stream, then a normal turn", async () => {
    const orch = await start("gemini-cli-0.61.0/g4.jsonl");
    orch.send("Run the slow build.");
    await until(orch, (s) => s.permissions.length === 1);
    orch.cancel();
    await until(orch, answered(0));
    orch.send("Write a long essay.");
    await until(orch, (s) => s.items.filter((i) => i.kind === "agent").length >= 1);
    orch.cancel();
    await until(orch, answered(1));
    orch.send("Are you still there?");
    const s = await until(orch, answered(2));
    expect(s.turns.filter((t) => t.origin === "user").map((t) => t.stopReason)).toEqual(["cancelled", "cancelled", "end_turn"]);
    expect(Object.values(s.toolCalls).map(displayStatus)).toEqual(["cancelled"]);
  });
});
