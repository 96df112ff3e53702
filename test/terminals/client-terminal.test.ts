import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ClientTerminal, type ClientTerminalOptions } from "../../src/terminals/client-terminal.js";
import { liveProcessesInGroup } from "../support/proc.js";
import { waitUntil } from "../support/wait.js";

/** No lone surrogates: a UTF-8 round trip would turn one into U+FFFD. */
const isWellFormed = (text: string): boolean => Buffer.from(text, "utf8").toString("utf8") === text;

const started: ClientTerminal[] = [];
function run(options: ClientTerminalOptions): ClientTerminal {
  const terminal = new ClientTerminal(options);
  started.push(terminal);
  return terminal;
}
afterEach(() => {
  for (const terminal of started.splice(0)) terminal.release();
});

const node = process.execPath;
const scratch = mkdtempSync(path.join(tmpdir(), "conch-client-terminal-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("ClientTerminal", () => {
  it("captures a command's output in the log and on the screen", async () => {
    const terminal = run({ command: "echo", args: ["hello", "world"] });
    const status = await terminal.waitForExit();
    expect(status).toEqual({ exitCode: 0, signal: null });
    expect(terminal.output()).toEqual({ output: "hello world\r\n", truncated: false, exitStatus: { exitCode: 0, signal: null } });
    expect(await terminal.screen.plainText()).toBe("hello world");
  });

  it("answers terminal/output with every read so far, and the session is told the same text", async () => {
    // Output waits for the frame that shows it; asking for it takes what waits, and tells it.
    const terminal = run({
      command: node,
      args: ["-e", "let i = 0; const t = setInterval(() => { console.log(`line ${i}`); if (++i === 400) clearInterval(t); }, 1)"],
    });
    let told = "";
    terminal.onOutput((data) => (told += data));
    let asked = 0;
    while (terminal.exitStatus === null) {
      const { output } = terminal.output();
      expect(output).toBe(told);
      if (output !== "") asked++;
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await terminal.waitForExit();
    expect(asked).toBeGreaterThan(0);
    expect(terminal.output().output).toBe(told);
    expect(told).toContain("line 399\r\n");
  });

  it("has no exit status while running", async () => {
    const terminal = run({ command: "sh", args: ["-c", "echo started; read x"] });
    await waitUntil(() => terminal.output().output.includes("started"), "the command printed");
    expect(terminal.exitStatus).toBeNull();
    expect(terminal.output().exitStatus).toBeUndefined();
  });

  it("truncates a two-byte-character output from the front at a character boundary", async () => {
    const terminal = run({ command: node, args: ["-e", "process.stdout.write('é'.repeat(1000))"], outputByteLimit: 101 });
    await terminal.waitForExit();
    const { output, truncated } = terminal.output();
    expect(truncated).toBe(true);
    expect(output).toBe("é".repeat(50));
  });

  it("truncates emoji output without leaving half a character", async () => {
    const terminal = run({ command: node, args: ["-e", "process.stdout.write('😀'.repeat(300) + 'end')"], outputByteLimit: 23 });
    await terminal.waitForExit();
    const { output, truncated } = terminal.output();
    expect(truncated).toBe(true);
    expect(isWellFormed(output)).toBe(true);
    expect(output).toBe("😀".repeat(5) + "end");
  });

  it("reports the exit code", async () => {
    const terminal = run({ command: "sh", args: ["-c", "exit 3"] });
    expect(await terminal.waitForExit()).toEqual({ exitCode: 3, signal: null });
    expect(terminal.exitStatus).toEqual({ exitCode: 3, signal: null });
  });

  it("kill() ends the command and the children it started, and the terminal stays readable", async () => {
    const terminal = run({ command: "sh", args: ["-c", "echo before; sleep 30; echo after"] });
    await waitUntil(() => liveProcessesInGroup(terminal.pid).some((p) => p.command === "sleep"), "sleep runs");
    const exits: unknown[] = [];
    terminal.onExit((status) => exits.push(status));

    terminal.kill();
    const status = await terminal.waitForExit();

    expect(status).toEqual({ exitCode: null, signal: "SIGTERM" });
    expect(exits).toEqual([status]);
    await waitUntil(() => liveProcessesInGroup(terminal.pid).length === 0, "the sleep child is gone");
    expect(terminal.output().output).toContain("before");
    expect(terminal.output().output).not.toContain("after");
    expect(terminal.output().exitStatus).toEqual(status);
    expect(await terminal.screen.plainText()).toBe("before");
  });

  it("kill() escalates to SIGKILL when the command ignores SIGTERM", async () => {
    const terminal = run({ command: "sh", args: ["-c", "trap '' TERM; echo ready; while :; do sleep 1; done"], killGraceMs: 100 });
    await waitUntil(() => terminal.output().output.includes("ready"), "the trap is set");
    terminal.kill();
    expect(await terminal.waitForExit()).toEqual({ exitCode: null, signal: "SIGKILL" });
  });

  it("release() kills a running command, frees its log and keeps its screen readable", async () => {
    const terminal = run({ command: "sh", args: ["-c", "echo visible; sleep 30"] });
    await waitUntil(() => terminal.output().output.includes("visible"), "the command printed");
    terminal.release();
    const status = await terminal.waitForExit();
    expect(status.signal).toBe("SIGTERM");
    expect(terminal.released).toBe(true);
    expect(terminal.output().output).toBe("");
    expect(await terminal.screen.plainText()).toBe("visible");
    await waitUntil(() => liveProcessesInGroup(terminal.pid).length === 0, "the group is gone");
  });

  it("release() after exit reaps what the command left running in the background", async () => {
    // Ignoring SIGHUP (inherited by the child) lets it outlive the shell, as `nohup cmd &` would.
    const terminal = run({ command: "sh", args: ["-c", "trap '' HUP; sleep 30 & echo bg"] });
    await terminal.waitForExit();
    expect(liveProcessesInGroup(terminal.pid).map((p) => p.command)).toEqual(["sleep"]);
    terminal.release();
    await waitUntil(() => liveProcessesInGroup(terminal.pid).length === 0, "the background sleep is gone");
  });

  it("honours env and cwd", async () => {
    const terminal = run({
      command: "sh",
      args: ["-c", 'echo "$CONCH_TEST_VAR"; pwd'],
      env: [{ name: "CONCH_TEST_VAR", value: "from the agent" }],
      cwd: scratch,
    });
    await terminal.waitForExit();
    expect(await terminal.screen.plainText()).toBe(`from the agent\n${realpathSync(scratch)}`);
    expect(terminal.cwd).toBe(scratch);
  });

  it("runs a spaced command without args through /bin/sh -c", async () => {
    const terminal = run({ command: "echo one two | tr a-z A-Z" });
    await terminal.waitForExit();
    expect(await terminal.screen.plainText()).toBe("ONE TWO");
  });

  it("passes args to the program unmangled by any shell", async () => {
    const terminal = run({ command: "printf", args: ["%s|", "a b", "$HOME", "*"] });
    await terminal.waitForExit();
    expect(terminal.output().output).toBe("a b|$HOME|*|");
  });

  it("feeds write() to a command reading stdin", async () => {
    const terminal = run({ command: "sh", args: ["-c", "read x; echo got:$x"] });
    terminal.write("hello\r");
    expect(await terminal.waitForExit()).toEqual({ exitCode: 0, signal: null });
    expect(terminal.output().output).toContain("got:hello");
  });

  it("resize() changes the size the command sees", async () => {
    const terminal = run({ command: "sh", args: ["-c", "read x; stty size"], cols: 80, rows: 24 });
    terminal.resize(100, 30);
    terminal.write("\r");
    await terminal.waitForExit();
    expect(terminal.output().output).toContain("30 100");
    expect(terminal.screen.cols).toBe(100);
  });

  it("answers terminal queries from the program (cursor position report)", async () => {
    const script =
      "process.stdin.setRawMode(true); process.stdout.write('\\x1b[6n'); process.stdin.once('data', (d) => { console.log(JSON.stringify(String(d))); process.exit(0); });";
    const terminal = run({ command: node, args: ["-e", script] });
    await terminal.waitForExit();
    expect(terminal.output().output).toContain(JSON.stringify("\x1b[1;1R"));
  });

  it("refuses a program that does not exist", () => {
    expect(() => run({ command: "conch-no-such-program-xyz" })).toThrow(/Command not found: conch-no-such-program-xyz/);
  });

  it("keeps the last output of commands that print a lot and exit at once", async () => {
    // node-pty alone drops the tail here on Linux (its issue #726); run it often enough to show.
    const payload = "hello".repeat(8192);
    const runs = Array.from({ length: 20 }, () => run({ command: "printf", args: ["%s", payload] }));
    await Promise.all(runs.map((terminal) => terminal.waitForExit()));
    for (const terminal of runs) expect(terminal.output().output.length).toBe(payload.length);
  });

  it("loses no output when a fast writer outruns the emulator", async () => {
    const total = 6 * 1024 * 1024;
    const terminal = run({
      command: node,
      args: ["-e", `const line = 'x'.repeat(1023) + '\\n'; for (let i = 0; i < ${total / 1024}; i++) process.stdout.write(line);`],
      outputByteLimit: total * 2,
    });
    let screenChanges = 0;
    terminal.onScreenChange(() => screenChanges++);
    await terminal.waitForExit();
    // The PTY turns each "\n" into "\r\n".
    expect(Buffer.byteLength(terminal.output().output)).toBe(total + total / 1024);
    expect(terminal.output().truncated).toBe(false);
    expect(screenChanges).toBeGreaterThan(0);
    expect((await terminal.screen.plainText()).split("\n").at(-1)).toBe("x".repeat(1023));
  });
});
