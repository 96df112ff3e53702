import xterm from "@xterm/headless";
import { describe, expect, it } from "vitest";
import { agentLabel, echoRead, InstantPrompt, type Echo } from "../../src/ui/app/instant-prompt.js";

const start: Echo = { line: "", queued: 0, inPaste: false };
const echo = (...reads: string[]) => reads.reduce(echoRead, start);

/** A 60x8 screen as conch finds it: the shell's command line, the cursor on the line below. */
function screen() {
  // convertEol: the tty turns \n into \r\n (ONLCR), raw mode or not.
  const term = new xterm.Terminal({ cols: 60, rows: 8, allowProposedApi: true, convertEol: true });
  const out = { columns: 60, write: (text: string) => term.write(text) };
  term.write("$ conch\n");
  const rows = () =>
    new Promise<string[]>((resolve) =>
      term.write("", () => {
        const lines: string[] = [];
        for (let y = 0; y < term.rows; y++) lines.push(term.buffer.active.getLine(y)?.translateToString(true) ?? "");
        resolve(lines.filter((l, i) => l || i < 4));
      }),
    );
  return { out, rows };
}

describe("the instant prompt's echo of keys typed while conch loads", () => {
  it("shows the text being typed, with Backspace applied; Enter counts a queued message", () => {
    expect(echo("hel", "lp\x7f\x7fl")).toMatchObject({ line: "hell", queued: 0 });
    expect(echo("first\r", "sec")).toMatchObject({ line: "sec", queued: 1 });
    expect(echo("\r", "  \r")).toMatchObject({ line: "", queued: 0 });
  });

  it("shows a paste's line breaks as ⏎ and leaves other keys to the editor", () => {
    expect(echo("\x1b[200~a\rb", "c\x1b[201~", "\x1b[D!")).toMatchObject({ line: "a⏎bc!", queued: 0, inPaste: false });
  });

  it("draws under the shell's line, echoes, and erases itself without a trace", async () => {
    process.env.NO_COLOR = "1";
    const { out, rows } = screen();
    const prompt = new InstantPrompt(out, "demo", "/tmp/work");
    expect(await rows()).toEqual(["$ conch", "", "›  message the agent · / commands · @ files", "demo · starting… · /tmp/work"]);
    prompt.show(["hi\r", "there"]);
    expect(await rows()).toEqual(["$ conch", "", "› there", "demo · starting… · 1 queued · /tmp/work"]);
    prompt.erase();
    expect(await rows()).toEqual(["$ conch", "", "", ""]);
    delete process.env.NO_COLOR;
  });

  it("names the agent by its preset, or by the program of a command line", () => {
    expect(agentLabel(undefined)).toBe("conch");
    expect(agentLabel("codex")).toBe("codex");
    expect(agentLabel("/root/.cache/real-acp-agents/codex/node_modules/.bin/codex-acp")).toBe("codex-acp");
    expect(agentLabel("/usr/bin/node /opt/agents/claude/dist/index.js --acp")).toBe("node");
  });
});
