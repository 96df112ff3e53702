import { describe, expect, it } from "vitest";
import { buildPrompt } from "../../../src/ui/compose/prompt-blocks.js";
import { commandOutput, outputLabel, shellLineOf } from "../../../src/ui/compose/shell-output.js";
import { initialSessionState, type SessionState } from "../../../src/session/state.js";

function withTerminal(output: string, exit?: { exitCode: number | null; signal: string | null }): SessionState {
  const s = initialSessionState();
  s.terminals.u1 = {
    terminalId: "u1",
    source: "client",
    command: "make test",
    exited: exit !== undefined,
    exitCode: exit?.exitCode,
    signal: exit?.signal,
    outputTail: output,
    outputBytes: output.length,
    history: false,
    by: "user",
  };
  return s;
}

describe("the user's own command in the input (!cmd, !!cmd)", () => {
  it("reads ! and !! and what follows", () => {
    expect(shellLineOf("!ls -la")).toEqual({ line: "ls -la", attach: false });
    expect(shellLineOf("!! make test ")).toEqual({ line: "make test", attach: true });
    expect(shellLineOf("hello !ls")).toBeUndefined();
    expect(shellLineOf("!")).toEqual({ line: "", attach: false });
  });

  it("its output, for the agent: the line, the text without escape sequences, and how it ended", () => {
    const s = withTerminal("\u001b[32mok\u001b[0m 3 tests\n", { exitCode: 0, signal: null });
    expect(commandOutput(s, undefined, "u1")).toBe("$ make test\nok 3 tests\n[exit 0]");
    expect(commandOutput(withTerminal("half"), undefined, "u1")).toBe("$ make test\nhalf\n[still running]");
  });

  it("goes with the message while its label is in the text: a text resource, or text for an agent without embedded context", () => {
    const label = outputLabel("make test");
    const outputs = [{ label, text: "$ make test\nok\n[exit 0]" }];
    const withResource = buildPrompt(`why? ${label}`, { cwd: "/", images: false, outputs, embedded: true });
    expect(withResource.blocks?.[1]).toEqual({
      type: "resource",
      resource: { uri: `conch:output/${encodeURIComponent(label)}`, mimeType: "text/plain", text: "$ make test\nok\n[exit 0]" },
    });
    const asText = buildPrompt(`why? ${label}`, { cwd: "/", images: false, outputs, embedded: false });
    expect(asText.blocks?.[1]).toEqual({ type: "text", text: `\n\n${label}:\n\`\`\`\n$ make test\nok\n[exit 0]\n\`\`\`` });
    expect(buildPrompt("why?", { cwd: "/", images: false, outputs, embedded: true }).blocks).toBeNull();
  });
});
