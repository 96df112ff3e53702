import { StringDecoder } from "node:string_decoder";
import { afterEach, describe, expect, it } from "vitest";
import { ClientTerminal } from "../../src/terminals/client-terminal.js";
import { endsMidCharacter, readAsBytes } from "../../src/terminals/pty-bytes.js";
import { ptyModule } from "../../src/terminals/pty-module.js";

// A pane's output goes to its screen as the PTY's bytes. What must hold for that: node-pty's stream
// can be made to give bytes (else every read is encoded again on its way), the command still sees a
// terminal in UTF-8 mode, and a read cut inside a character is told apart as a decoder does.

const started: ClientTerminal[] = [];
afterEach(() => {
  for (const terminal of started.splice(0)) {
    terminal.release();
    terminal.screen.dispose();
  }
});

describe("a PTY's output as bytes", () => {
  it("comes as bytes from the installed node-pty once asked, not decoded", async () => {
    const pty = ptyModule().module.spawn("printf", ["caf\\303\\251"], { cols: 20, rows: 5, encoding: "utf8" });
    expect(readAsBytes(pty)).toBe(true);
    const reads: unknown[] = [];
    pty.onData((data) => reads.push(data));
    await new Promise<void>((resolve) => pty.onExit(() => resolve()));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((read) => Buffer.isBuffer(read))).toBe(true);
    expect(Buffer.concat(reads as Buffer[]).toString("utf8")).toBe("café");
  });

  it("leaves the command a terminal in UTF-8 mode, so line editing erases whole characters", async () => {
    const terminal = new ClientTerminal({ command: "stty", args: ["-a"] });
    started.push(terminal);
    await terminal.waitForExit();
    expect(terminal.output().output).toMatch(/(^|\s)iutf8(\s|$)/);
  });

  it("says a read ends inside a character exactly when a UTF-8 decoder waits for more", () => {
    const text = Buffer.from("a日\u{1F642}é\u2714z\u00ff", "utf8");
    const broken = Buffer.from([0x61, 0x80, 0xe2, 0x9c, 0x63, 0xff, 0xf0, 0x9f, 0xc0, 0xf5, 0x80, 0x80, 0xf8, 0xed, 0xa0]);
    for (const bytes of [text, broken, broken.subarray(1), broken.subarray(3)]) {
      for (let cut = 0; cut <= bytes.length; cut++) {
        const decoder = new StringDecoder("utf8");
        decoder.write(bytes.subarray(0, cut));
        expect(endsMidCharacter(bytes.subarray(0, cut)), `cut at ${cut}`).toBe(decoder.end() !== "");
      }
    }
  });
});
