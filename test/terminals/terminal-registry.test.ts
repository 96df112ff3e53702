import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { DisplayTerminal } from "../../src/terminals/display-terminal.js";
import { TerminalRegistry, type TerminalRegistryChange } from "../../src/terminals/terminal-registry.js";
import { toolCallMetas } from "./trace-meta.js";
import { liveProcessesInGroup } from "../support/proc.js";
import { waitUntil } from "../support/wait.js";

const registries: TerminalRegistry[] = [];
function registry(options: ConstructorParameters<typeof TerminalRegistry>[0] = {}): TerminalRegistry {
  const created = new TerminalRegistry(options);
  registries.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(registries.splice(0).map((created) => created.dispose()));
});

const scratch = mkdtempSync(path.join(tmpdir(), "conch-terminal-registry-"));
const root = path.join(scratch, "project");
mkdirSync(path.join(root, "sub"), { recursive: true });
mkdirSync(path.join(scratch, "elsewhere"));
symlinkSync(path.join(scratch, "elsewhere"), path.join(root, "escape"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function settled(terminal: { screen: { flush(): Promise<void> } } | undefined): Promise<void> {
  await terminal?.screen.flush();
}

describe("DisplayTerminal", () => {
  it("shows written output with bare line feeds as separate lines and records the exit", async () => {
    const terminal = new DisplayTerminal("t1", { cols: 20, rows: 5 });
    const exits: unknown[] = [];
    terminal.onExit((status) => exits.push(status));
    terminal.write("tick\n");
    terminal.write("done\n");
    terminal.exit(0, null);
    terminal.exit(1, null); // a second report does not overwrite the first
    expect(terminal.exitStatus).toEqual({ exitCode: 0, signal: null });
    await terminal.flush();
    expect(terminal.screen.plainText()).toBe("tick\ndone");
    await waitUntil(() => exits.length === 1, "the exit listener ran");
    expect(exits).toEqual([{ exitCode: 0, signal: null }]);
    terminal.screen.dispose();
  });
});

describe("TerminalRegistry: display terminals", () => {
  it("buffers output and exit that arrive before terminal_info and applies them when it comes", async () => {
    const terminals = registry();
    terminals.applyMeta({ terminal_output: { terminal_id: "t1", data: "early " } });
    terminals.applyMeta({ terminal_exit: { terminal_id: "t1", exit_code: 7, signal: null } });
    expect(terminals.get("t1")).toBeUndefined();

    terminals.applyMeta({ terminal_info: { terminal_id: "t1", cwd: "/work" } });
    terminals.applyMeta({ terminal_output: { terminal_id: "t1", data: "late" } });

    const terminal = terminals.get("t1");
    await settled(terminal);
    expect(terminal?.kind).toBe("display");
    expect(terminal?.cwd).toBe("/work");
    expect(terminal?.screen.plainText()).toBe("early late");
    expect(terminal?.exitStatus).toEqual({ exitCode: 7, signal: null });
  });

  it("records an exit and tells subscribers about additions, output and exits", async () => {
    const terminals = registry();
    const changes: TerminalRegistryChange[] = [];
    const unsubscribe = terminals.subscribe((change) => changes.push(change));
    terminals.applyMeta({ terminal_info: { terminal_id: "t2" } });
    terminals.applyMeta({ terminal_output: { terminal_id: "t2", data: "hi" } });
    terminals.applyMeta({ terminal_exit: { terminal_id: "t2", exit_code: 0, signal: null } });
    await waitUntil(() => changes.some((change) => change.type === "exited"), "the exit was announced");
    expect(changes[0]).toEqual({ type: "added", id: "t2", kind: "display" });
    expect(changes).toContainEqual({ type: "screen", id: "t2" });
    expect(changes.at(-1)).toEqual({ type: "exited", id: "t2", status: { exitCode: 0, signal: null } });

    unsubscribe();
    const before = changes.length;
    terminals.applyMeta({ terminal_info: { terminal_id: "t3" } });
    expect(changes).toHaveLength(before);
  });

  it("keeps output that comes after the exit (agents may report the exit first)", async () => {
    const terminals = registry();
    terminals.applyMeta({ terminal_info: { terminal_id: "t4" } });
    terminals.applyMeta({ terminal_exit: { terminal_id: "t4", exit_code: 0, signal: null } });
    terminals.applyMeta({ terminal_output: { terminal_id: "t4", data: "straggler\n" } });
    await settled(terminals.get("t4"));
    expect(terminals.get("t4")?.screen.plainText()).toBe("straggler");
  });

  it("opens a terminal once when terminal_info repeats", () => {
    const terminals = registry();
    const first = terminals.openDisplayTerminal("t5");
    const second = terminals.openDisplayTerminal("t5", "/later");
    expect(second).toBe(first);
    expect(terminals.list()).toHaveLength(1);
    expect(first?.cwd).toBe("/later");
  });

  it("replays codex's c4-meta trace into a pane showing tick and done", async () => {
    const terminals = registry();
    for (const meta of toolCallMetas("codex-acp-0.16.0/c4-meta.jsonl")) terminals.applyMeta(meta);
    const pane = terminals.get("call_c4_exec");
    await settled(pane);
    expect(pane?.kind).toBe("display");
    const text = pane?.screen.plainText() ?? "";
    expect(text).toContain("tick");
    expect(text).toContain("done");
    expect(text).toBe("tick\n\n\ndone");
    expect(pane?.exitStatus).toEqual({ exitCode: 0, signal: null });
  });

  it("replays claude's background-bash trace: a placeholder line per task and an exit with no code", async () => {
    const terminals = registry({ cols: 100 });
    for (const meta of toolCallMetas("claude-agent-acp-0.100.0/s4-background-bash.terminal_output.jsonl")) terminals.applyMeta(meta);
    expect(terminals.list().map((terminal) => terminal.id)).toEqual(["toolu_s4_bg1", "toolu_s4_bg2"]);
    for (const terminal of terminals.list()) {
      await settled(terminal);
      expect(terminal.screen.plainText()).toMatch(/^Command running in background with ID: /);
      expect(terminal.exitStatus).toEqual({ exitCode: null, signal: null });
    }
  });
});

describe("TerminalRegistry: client terminals", () => {
  it("runs a command in the session root by default and serves it by id", async () => {
    const terminals = registry({ root });
    const created = await terminals.createClientTerminal({ command: "pwd" });
    const terminal = terminals.clientTerminal(created.id);
    expect(await terminal.waitForExit()).toEqual({ exitCode: 0, signal: null });
    expect(terminal.output().output.trim()).toBe(realpathSync(root));
    expect(terminals.get(created.id)).toBe(created);
  });

  it("starts a command at the size its pane will have when it is asked, so its first output is laid out for it", async () => {
    let width = 116;
    const terminals = registry({ root, size: () => ({ cols: width, rows: 10 }) });
    const first = terminals.clientTerminal((await terminals.createClientTerminal({ command: "sh", args: ["-c", "stty size"] })).id);
    await first.waitForExit();
    expect(first.output().output.trim()).toBe("10 116");
    width = 36;
    const second = await terminals.createClientTerminal({ command: "true" });
    expect([second.screen.cols, second.screen.rows]).toEqual([36, 10]);
  });

  it("accepts a cwd inside the root, relative or absolute", async () => {
    const terminals = registry({ root });
    for (const cwd of ["sub", path.join(root, "sub")]) {
      const terminal = await terminals.createClientTerminal({ command: "pwd", cwd });
      await terminal.waitForExit();
      expect(terminal.output().output.trim()).toBe(realpathSync(path.join(root, "sub")));
    }
  });

  it("refuses a cwd outside the session root, also through a symlink", async () => {
    const terminals = registry({ root });
    await expect(terminals.createClientTerminal({ command: "pwd", cwd: scratch })).rejects.toThrow(/outside the session root/);
    await expect(terminals.createClientTerminal({ command: "pwd", cwd: path.join(root, "escape") })).rejects.toThrow(
      /outside the session root/,
    );
    await expect(terminals.createClientTerminal({ command: "pwd", cwd: path.join(root, "missing") })).rejects.toThrow(/does not exist/);
    expect(terminals.list()).toEqual([]);
  });

  it("allows any cwd when confinement is off", async () => {
    const terminals = registry({ root });
    const terminal = await terminals.createClientTerminal({ command: "pwd", cwd: scratch }, { confineCwd: false });
    await terminal.waitForExit();
    expect(terminal.output().output.trim()).toBe(realpathSync(scratch));
  });

  it("after release, the agent can no longer reach the terminal but the UI still lists its screen", async () => {
    const terminals = registry({ root });
    const changes: TerminalRegistryChange[] = [];
    terminals.subscribe((change) => changes.push(change));
    const terminal = await terminals.createClientTerminal({ command: "sh", args: ["-c", "echo shown; sleep 30"] });
    await waitUntil(() => terminal.output().output.includes("shown"), "the command printed");
    terminals.release(terminal.id);
    await terminal.waitForExit();
    expect(() => terminals.clientTerminal(terminal.id)).toThrow(/released/);
    expect(() => terminals.clientTerminal("nope")).toThrow(/Unknown terminal/);
    expect(await terminals.get(terminal.id)?.screen.plainText()).toBe("shown");
    expect(changes).toContainEqual({ type: "released", id: terminal.id });
  });

  it("does not serve an agent's display terminal as a client terminal", () => {
    const terminals = registry({ root });
    terminals.openDisplayTerminal("toolu_1");
    expect(() => terminals.clientTerminal("toolu_1")).toThrow(/Unknown terminal/);
  });

  it("dispose() kills every running command and its children", async () => {
    const terminals = new TerminalRegistry({ root });
    const first = await terminals.createClientTerminal({ command: "sh", args: ["-c", "sleep 30; echo never"] });
    const second = await terminals.createClientTerminal({ command: "sleep", args: ["30"] });
    await waitUntil(() => liveProcessesInGroup(first.pid).some((p) => p.command === "sleep"), "the child sleep runs");
    await terminals.dispose();
    expect(first.exitStatus?.signal).toBe("SIGTERM");
    expect(second.exitStatus?.signal).toBe("SIGTERM");
    await waitUntil(
      () => liveProcessesInGroup(first.pid).length === 0 && liveProcessesInGroup(second.pid).length === 0,
      "no process is left",
    );
    await expect(terminals.createClientTerminal({ command: "true" })).rejects.toThrow(/closed/);
  });
});
