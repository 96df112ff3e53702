import { describe, expect, it } from "vitest";
import { hasTerminalMeta, readTerminalMeta } from "../../src/terminals/terminal-meta.js";
import { toolCallMetas } from "./trace-meta.js";

describe("readTerminalMeta", () => {
  it("reads codex's terminal_info with a cwd", () => {
    expect(readTerminalMeta({ terminal_info: { terminal_id: "call_c4_exec", cwd: "${PROJECT}" } })).toEqual({
      info: { terminalId: "call_c4_exec", cwd: "${PROJECT}" },
    });
  });

  it("reads claude's terminal_info next to its own claudeCode meta", () => {
    expect(readTerminalMeta({ claudeCode: { toolName: "Bash" }, terminal_info: { terminal_id: "toolu_s4_bg1" } })).toEqual({
      info: { terminalId: "toolu_s4_bg1" },
    });
  });

  it("reads terminal_output and accepts terminal_output_delta the same way", () => {
    expect(readTerminalMeta({ terminal_output: { terminal_id: "t", data: "tick\n" } })).toEqual({
      output: { terminalId: "t", data: "tick\n" },
    });
    expect(readTerminalMeta({ terminal_output_delta: { terminal_id: "t", data: "more" } })).toEqual({
      output: { terminalId: "t", data: "more" },
    });
  });

  it("reads terminal_exit, including claude's all-null exit", () => {
    expect(readTerminalMeta({ terminal_exit: { terminal_id: "t", exit_code: 0, signal: null } })).toEqual({
      exit: { terminalId: "t", exitCode: 0, signal: null },
    });
    expect(readTerminalMeta({ terminal_exit: { terminal_id: "t", exit_code: null, signal: null } })).toEqual({
      exit: { terminalId: "t", exitCode: null, signal: null },
    });
    expect(readTerminalMeta({ terminal_exit: { terminal_id: "t", exit_code: null, signal: "SIGKILL" } }).exit?.signal).toBe("SIGKILL");
  });

  it("reads several facts from one _meta", () => {
    const facts = readTerminalMeta({
      terminal_info: { terminal_id: "t" },
      terminal_output: { terminal_id: "t", data: "x" },
      terminal_exit: { terminal_id: "t", exit_code: 2, signal: null },
    });
    expect(facts).toEqual({
      info: { terminalId: "t" },
      output: { terminalId: "t", data: "x" },
      exit: { terminalId: "t", exitCode: 2, signal: null },
    });
  });

  it("tolerates junk without throwing", () => {
    const junk: unknown[] = [
      null,
      undefined,
      {},
      { terminal_info: "t" },
      { terminal_info: { terminal_id: 5 } },
      { terminal_info: { terminal_id: "" } },
      { terminal_info: [] },
      { terminal_output: { terminal_id: "t" } },
      { terminal_output: { terminal_id: "t", data: 42 } },
      { terminal_output: { data: "no id" } },
      { terminal_exit: null },
      { terminal_exit: { exit_code: 0 } },
      { claudeCode: { toolName: "Read" } },
    ];
    for (const meta of junk) {
      expect(readTerminalMeta(meta as Record<string, unknown> | null | undefined)).toEqual({});
    }
    expect(readTerminalMeta({ terminal_exit: { terminal_id: "t", exit_code: "0", signal: 9 } })).toEqual({
      exit: { terminalId: "t", exitCode: null, signal: null },
    });
  });

  it("finds terminal facts in exactly the real trace updates that carry them", () => {
    const codex = toolCallMetas("codex-acp-0.16.0/c4-meta.jsonl")
      .map((meta) => readTerminalMeta(meta))
      .filter(hasTerminalMeta);
    expect(codex).toEqual([
      { info: { terminalId: "call_c4_exec", cwd: "${PROJECT}" } },
      { output: { terminalId: "call_c4_exec", data: "tick\n" } },
      { output: { terminalId: "call_c4_exec", data: "\n\n" } },
      { output: { terminalId: "call_c4_exec", data: "done\n" } },
      { exit: { terminalId: "call_c4_exec", exitCode: 0, signal: null } },
    ]);
    const claude = toolCallMetas("claude-agent-acp-0.100.0/s4-background-bash.terminal_output.jsonl")
      .map((meta) => readTerminalMeta(meta))
      .filter(hasTerminalMeta);
    expect(claude.map((facts) => Object.keys(facts)[0])).toEqual(["info", "output", "info", "output", "exit", "exit"]);
  });
});
