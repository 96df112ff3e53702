import { afterEach, describe, expect, it } from "vitest";
import { ClientTerminal } from "../../src/terminals/client-terminal.js";

// A client terminal tells its output with the frame of its screen that shows it: the session's
// record of the output and the pane's new rows reach the UI in one turn (one redraw, not two).

const started: ClientTerminal[] = [];
afterEach(() => {
  for (const terminal of started.splice(0)) {
    terminal.release();
    terminal.screen.dispose();
  }
});

describe("a client terminal's output and its frames", () => {
  it("come together: each piece of output right before the frame that shows it, all of it before the exit", async () => {
    const script = "for (let i = 0; i < 2000; i++) process.stdout.write(`line ${i} ${'x'.repeat(60)}\\n`);";
    const terminal = new ClientTerminal({ command: process.execPath, args: ["-e", script], cols: 80, rows: 10 });
    started.push(terminal);
    const events: string[] = [];
    let told = "";
    terminal.onOutput((data) => {
      events.push("output");
      told += data;
    });
    terminal.onScreenChange(() => events.push("frame"));
    terminal.onExit(() => events.push("exit"));
    await terminal.waitForExit();

    expect(told).toBe(terminal.output().output);
    expect(events.at(-1)).toBe("exit");
    // Every piece is followed at once by its frame (the output of many reads in one piece).
    events.forEach((event, i) => event === "output" && expect(events[i + 1]).toBe("frame"));
    expect(events.filter((e) => e === "output").length).toBeLessThan(2000);
  });
});
