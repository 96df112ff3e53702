import xterm from "@xterm/headless";
import { describe, expect, it } from "vitest";
import { agentLabel, InstantPrompt } from "../../src/ui/app/instant-prompt.js";

/** A 60x8 screen as conch finds it: the shell's command line, the cursor on the line below. */
function screen() {
  // convertEol: the tty turns \n into \r\n (ONLCR), raw mode or not.
  const term = new xterm.Terminal({ cols: 60, rows: 8, allowProposedApi: true, convertEol: true });
  const out = { columns: 60, rows: 8, write: (text: string) => term.write(text) };
  term.write("$ conch\n");
  const rows = () =>
    new Promise<string[]>((resolve) =>
      term.write("", () => {
        const lines: string[] = [];
        for (let y = 0; y < term.rows; y++) lines.push(term.buffer.active.getLine(y)?.translateToString(true) ?? "");
        resolve(lines.filter((l, i) => l || i < 5).map((l) => l.replace(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/, "*")));
      }),
    );
  return { out, rows };
}

describe("the instant prompt", () => {
  it("draws the App's starting chrome under the shell's line, edits, queues, and erases itself without a trace", async () => {
    const { out, rows } = screen();
    const prompt = new InstantPrompt(out, "demo", "/tmp/work");
    expect(await rows()).toEqual([
      "$ conch",
      "",
      "* starting demo…",
      "›  type away: messages wait until the agent is ready",
      "demo · /tmp/work",
    ]);
    expect(prompt.take(["hi", "\r", "there", "\x7f"])).toEqual([]);
    expect(await rows()).toEqual([
      "$ conch",
      "",
      "  1. hi",
      "  queued: sent when the session opens · ↑ on an empty input…",
      "* starting demo…",
      "› ther ",
      "demo · /tmp/work",
    ]);
    // Keys the App decides (Esc) are left to it, with everything after them.
    expect(prompt.take(["\x1b", "x"])).toEqual(["\x1b", "x"]);
    expect((await rows())[5]).toBe("› ther ");
    prompt.erase();
    expect(await rows()).toEqual(["$ conch", "", "", "", ""]);
  });

  it("names the agent by its preset, or by the program of a command line", () => {
    expect(agentLabel(undefined)).toBe("conch");
    expect(agentLabel("codex")).toBe("codex");
    expect(agentLabel("/root/.cache/real-acp-agents/codex/node_modules/.bin/codex-acp")).toBe("codex-acp");
    expect(agentLabel("/usr/bin/node /opt/agents/claude/dist/index.js --acp")).toBe("node");
  });
});
