import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { ClientTerminal } from "../../src/terminals/client-terminal.js";
import {
  collectProcessTree,
  newProcessTag,
  PROCESS_TAG_VAR,
  processRoot,
  signalProcessTree,
  terminateProcessTree,
  type ProcessRoot,
} from "../../src/terminals/process-tree.js";
import { killMarked, markedProcesses, newMarker } from "../support/marked-processes.js";
import { waitUntil } from "../support/wait.js";

const idle = "setInterval(() => {}, 1e6)";
/** Node code that starts `code` as a setsid'd daemon through a launcher that exits at once (so it is reparented). */
const daemonize = (code: string, marker: string) =>
  `require("child_process").spawn(process.execPath, ["-e", ${JSON.stringify(`require("child_process").spawn(process.execPath, ["-e", ${JSON.stringify(code)}, ${JSON.stringify(marker)}], { detached: true, stdio: "ignore" }).unref()`)}, ${JSON.stringify(marker)}], { stdio: "ignore" });`;
/** A grandchild that ignores SIGTERM, in the root's group. */
const stubborn = (marker: string) =>
  `require("child_process").spawn(process.execPath, ["-e", ${JSON.stringify(`process.on("SIGTERM", () => {}); ${idle}`)}, ${JSON.stringify(marker)}], { stdio: "ignore" });`;

const markers: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const m of markers.splice(0)) killMarked(m);
  for (const c of children.splice(0)) c.kill("SIGKILL");
});

/** Starts a process the way conch starts an agent: its own session, a tag in its environment. */
function startRoot(code: string, marker: string): ProcessRoot {
  const tag = newProcessTag();
  const child = spawn(process.execPath, ["-e", `${code} ${idle}`, marker], {
    detached: true,
    stdio: "ignore",
    env: { ...process.env, [PROCESS_TAG_VAR]: tag },
  });
  children.push(child);
  return processRoot(child.pid!, tag);
}

describe("a process tree conch started (Linux: /proc)", () => {
  it("includes a setsid'd daemon whose parent already exited, and never conch itself", async () => {
    const marker = newMarker();
    markers.push(marker);
    const root = startRoot(`${daemonize(idle, marker)} ${stubborn(marker)}`, marker);
    // root + launcher's daemon + stubborn grandchild; the launcher itself exits.
    await waitUntil(() => markedProcesses(marker).length === 3, "the daemon and the grandchild run");
    const tree = collectProcessTree(root).map((m) => m.pid);
    expect(tree.sort()).toEqual(markedProcesses(marker).sort());
    expect(tree).not.toContain(process.pid);
  });

  it("is gone after terminateProcessTree, members that ignore SIGTERM included", async () => {
    const marker = newMarker();
    markers.push(marker);
    const root = startRoot(
      `process.on("SIGTERM", () => {}); ${daemonize(`process.on("SIGTERM", () => {}); ${idle}`, marker)} ${stubborn(marker)}`,
      marker,
    );
    await waitUntil(() => markedProcesses(marker).length === 3, "the tree runs");
    await terminateProcessTree(root, 200);
    await waitUntil(() => markedProcesses(marker).length === 0, "nothing of the tree is left");
  });

  it("never signals a process that merely has the root's pid now", async () => {
    const marker = newMarker();
    markers.push(marker);
    const stranger = spawn(process.execPath, ["-e", idle, marker], { detached: true, stdio: "ignore" });
    children.push(stranger);
    await waitUntil(() => markedProcesses(marker).length === 1, "the stranger runs");
    // As if conch's root had exited and its pid been reused: same pid, another start time.
    const stale: ProcessRoot = { pid: stranger.pid!, start: "1", tag: newProcessTag() };
    expect(collectProcessTree(stale)).toEqual([]);
    signalProcessTree(stale, "SIGKILL");
    await new Promise((r) => setTimeout(r, 100));
    expect(markedProcesses(marker)).toEqual([stranger.pid]);
  });

  it("a terminal command's daemon dies when the agent releases the terminal, though the command had exited", async () => {
    const marker = newMarker();
    markers.push(marker);
    const terminal = new ClientTerminal({ command: process.execPath, args: ["-e", daemonize(idle, marker), marker], killGraceMs: 200 });
    expect(await terminal.waitForExit()).toEqual({ exitCode: 0, signal: null });
    await waitUntil(() => markedProcesses(marker).length === 1, "the daemon runs");
    terminal.release();
    await waitUntil(() => markedProcesses(marker).length === 0, "the daemon is gone");
  });
});
