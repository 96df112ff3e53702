import type { InitializeResponse, NewSessionResponse } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { advertisesSteering } from "../../src/acp/steering.js";
import { formatProbe, mcpWarnings, type ProbeReport } from "../../src/cli/agent-probe.js";
import { probeRows, turnSignalRows } from "../../src/cli/probe-rows.js";
import { readTrace } from "../support/trace-events.js";

/** The `initialize` result and `session/new` answer a real agent gave in a recorded trace. */
function recorded(rel: string): { init: InitializeResponse; session: NewSessionResponse } {
  const answers = readTrace(rel).filter((l) => l.dir === "agent" && l.msg?.result !== undefined);
  const init = answers.find((l) => "protocolVersion" in (l.msg!.result as object))!.msg!.result as unknown as InitializeResponse;
  const session = answers.find((l) => "sessionId" in (l.msg!.result as object))!.msg!.result as unknown as NewSessionResponse;
  return { init, session };
}

const row = (rows: ReturnType<typeof probeRows>, capability: string) => rows.find((r) => r.capability === capability);

describe("what an agent advertises, next to what conch does with it", () => {
  it("reads claude-agent-acp 0.100: steering in initialize's _meta, every session capability, modes and options", () => {
    const { init, session } = recorded("claude-agent-acp-0.100.0/s1-text.jsonl");
    expect(advertisesSteering(init)).toBe(true);
    const rows = probeRows(init, session);
    expect(row(rows, "steering")?.advertised).toBe("yes");
    for (const cap of ["session/load", "session/resume", "session/list", "session/close", "session/fork", "session/delete", "logout"])
      expect(row(rows, cap)?.advertised, cap).toBe("yes");
    expect(row(rows, "session/delete")?.conch).toBe("conch sessions delete <id> deletes it at the agent too");
    expect(row(rows, "mcp transports")?.advertised).toBe("stdio, http, sse");
    expect(row(rows, "prompt content")?.advertised).toBe("text, image, embedded context");
    expect(row(rows, "modes")?.advertised).toBe("default*, acceptEdits, plan, auto");
    expect(row(rows, "option model")?.conch).toBe("/config model <value> (backs /model)");
    expect(row(rows, "capability _meta")?.advertised).toBe("claudeCode, authStatus");
  });

  it("reads codex-acp 0.16: no steering, auth methods by kind, and an sse MCP server it will not be given", () => {
    const { init, session } = recorded("codex-acp-0.16.0/c1.jsonl");
    const rows = probeRows(init, session);
    expect(row(rows, "steering")?.advertised).toBe("no");
    expect(row(rows, "auth methods")?.advertised).toBe("chatgpt (agent), codex-api-key (env var), openai-api-key (env var)");
    expect(row(rows, "mcp transports")?.advertised).toBe("stdio, http");
    expect(row(rows, "option reasoning_effort")?.advertised).toBe("low, medium*, high, xhigh");
    const servers = [
      { name: "files", command: "x", args: [], env: [] },
      { type: "http" as const, name: "api", url: "http://h/mcp", headers: [] },
      { type: "sse" as const, name: "docs", url: "http://h/sse", headers: [] },
    ];
    expect(mcpWarnings(init, servers)).toEqual(['MCP server "docs" (sse) will be dropped: the agent does not take sse servers']);
  });

  it("reads gemini-cli 0.61: load without resume, list or close; models from session/new", () => {
    const { init, session } = recorded("gemini-cli-0.61.0/g1.jsonl");
    const rows = probeRows(init, session);
    expect(row(rows, "session/resume")?.advertised).toBe("no");
    expect(row(rows, "session/close")?.conch).toBe("quitting only stops the agent");
    expect(row(rows, "models")?.advertised).toContain("gemini-2.5-pro");
    expect(row(rows, "models")?.conch).toBe("/model switches them (session/set_model)");
  });

  it("prints a report as a table, with the warnings after it", () => {
    const { init, session } = recorded("codex-acp-0.16.0/c1.jsonl");
    const report: ProbeReport = {
      name: "codex",
      command: "codex-acp",
      ok: true,
      agentInfo: { name: "codex-acp", title: "Codex", version: "0.16.0" },
      protocolVersion: 1,
      startMs: 40,
      session: { ok: true, ms: 5, closed: true },
      rows: probeRows(init, session),
      signals: turnSignalRows(init.agentInfo),
      warnings: ['MCP server "docs" (sse) will be dropped: the agent does not take sse servers'],
    };
    const text = formatProbe(report);
    expect(text).toContain(
      "codex: codex-acp\n  codex-acp 0.16.0 (Codex) · protocol 1 · initialize in 40 ms\n  session/new in 5 ms, then session/close",
    );
    expect(text).toMatch(/^ {2}session\/load +yes +--resume opens the session with its history replayed$/m);
    expect(text).toMatch(/^ {2}how conch knows a turn is over, best first:\n {4}session\/update state_update/m);
    expect(text).toMatch(/^ {4}session\/prompt response +gives it +the prompt's turn is over/m);
    expect(text.trimEnd().split("\n").at(-1)).toBe('  ! MCP server "docs" (sse) will be dropped: the agent does not take sse servers');
    expect(
      formatProbe({
        name: "x",
        command: "nope",
        ok: false,
        error: "agent x exited with code 127 before it answered initialize",
        rows: [],
        signals: [],
        warnings: [],
      }),
    ).toBe("x: nope\n  could not probe it: agent x exited with code 127 before it answered initialize");
  });
});

describe("the turn-signal table: which agent gives which, best first", () => {
  const gives = (rel: string) =>
    turnSignalRows(recorded(rel).init.agentInfo)
      .filter((r) => r.agent === "gives it")
      .map((r) => r.signal);

  it("codex-acp 2.6 frames its turns with threadStatus; 0.16 has only its prompt response", () => {
    expect(gives("codex-acp-2.6.0/c1.jsonl")).toEqual(["session_info_update _meta.codex.threadStatus", "session/prompt response"]);
    expect(gives("codex-acp-0.16.0/c1.jsonl")).toEqual(["session/prompt response"]);
  });

  it("claude-agent-acp 0.100 gives _session/turn_ended (when it has it) and the _claude/origin marker; 0.23 holds its response", () => {
    expect(gives("claude-agent-acp-0.100.0/s1-text.jsonl")).toEqual([
      "_session/turn_ended notification",
      'usage_update _meta["_claude/origin"]',
      "session/prompt response",
    ]);
    expect(gives("claude-agent-acp-0.23.1/s1-text.jsonl")).toEqual(["session/prompt response, held"]);
  });

  it("every signal conch knows is accepted from every agent, best first: v2 state_update heads the list", () => {
    const rows = turnSignalRows(recorded("gemini-cli-0.61.0/g1.jsonl").init.agentInfo);
    expect(rows[0]).toMatchObject({ signal: "session/update state_update (ACP v2 draft)", agent: "accepted if sent" });
    expect(rows.map((r) => r.agent)).toEqual(["accepted if sent", "accepted if sent", "accepted if sent", "accepted if sent", "gives it"]);
  });
});

describe("a long model list", () => {
  it("codex-acp 2.6's 50 model/effort pairs read as 9 models with their efforts", () => {
    const { init, session } = recorded("codex-acp-2.6.0/c2.jsonl");
    const models = row(probeRows(init, session), "models")!.advertised;
    expect(models.split(", ")).toHaveLength(9);
    expect(models).toContain("gpt-5.5[low|medium*|high|xhigh]");
  });
});
