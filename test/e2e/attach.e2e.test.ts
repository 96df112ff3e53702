import { readFileSync } from "node:fs";
import { execa, type ResultPromise } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { sessionLockPath } from "../../src/store/state-dir.js";
import { CONCH, runConch, tempDir } from "../support/run-conch.js";
import { Screen, terminalEnv } from "./screen.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const running: (ResultPromise | Screen)[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) {
    if (p instanceof Screen) await p.kill();
    else p.kill("SIGKILL");
  }
});

/** Starts `conch -p <prompt>` in the background and waits until its session is in the index. */
async function printRun(prompt: string, stateDir: string, env: Record<string, string> = {}) {
  const cwd = tempDir();
  const proc = execa(process.execPath, [CONCH, "-p", prompt, "--agent", "demo", "--permissions", "approve-all"], {
    cwd,
    reject: false,
    // Piped stdin would be read as more prompt: give it none.
    stdin: "ignore",
    env: { ...terminalEnv(stateDir), NO_COLOR: "1", ...env } as Record<string, string>,
  });
  running.push(proc);
  for (let i = 0; i < 200; i++) {
    const r = await runConch(["sessions", "--json", "--all"], { stateDir });
    const list = JSON.parse(r.stdout || "[]") as { id: string }[];
    if (list.length) return { proc, id: list[0].id, cwd };
    await sleep(50);
  }
  throw new Error("the -p run never opened its session");
}

describe("conch attach", () => {
  it("follows a session a -p run is writing, read-only, alongside the run that holds its lock", async () => {
    const stateDir = tempDir("conch-state-");
    // `slow` streams for about five seconds whatever the demo delay is.
    const run = await printRun("slow", stateDir);
    const screen = new Screen({
      command: process.execPath,
      args: [CONCH, "attach", run.id.slice(0, 10)],
      cwd: run.cwd,
      env: terminalEnv(stateDir),
      cols: 100,
      rows: 30,
    });
    running.push(screen);
    await screen.waitForText(`attached to ${run.id}, read-only · q quits`);
    await screen.waitForText(`live: conch pid ${run.proc.pid} runs this session`);
    await screen.waitForText("› slow");
    await screen.waitForText("This answer is deliberately slow");
    expect(screen.text()).not.toContain("which is also fine");
    // The run still owns the session: a second conch that would write to it is refused, the view is not.
    const lock = readFileSync(sessionLockPath(run.id, stateDir), "utf8");
    expect(lock.split("\n")[0]).toBe(String(run.proc.pid));
    const resume = await runConch(["-p", "more", "--agent", "demo", "--resume", run.id], { stateDir });
    expect(resume.code).toBe(1);
    expect(resume.stderr).toContain("is open in another conch");
    // The text grows on screen as the run's log does, to the end of the answer.
    await screen.waitForText("which is also fine", 20_000);
    expect((await run.proc).exitCode).toBe(0);
    await screen.waitForText(`ended: conch pid ${run.proc.pid} has exited`, 10_000);
    await screen.type("q");
    expect(await screen.exited).toBe(0);
  });

  it("shows a terminal pane where the log holds a command's output", async () => {
    const stateDir = tempDir("conch-state-");
    const run = await printRun("run", stateDir);
    expect((await run.proc).exitCode).toBe(0);
    const screen = new Screen({
      command: process.execPath,
      args: [CONCH, "attach", run.id],
      cwd: run.cwd,
      env: terminalEnv(stateDir),
      cols: 100,
      rows: 40,
    });
    running.push(screen);
    await screen.waitForText("not open in any conch: shown as logged, and followed if one resumes it");
    await screen.waitForText(/╭─ .*sh -c/);
    await screen.waitForText("build ok");
    await screen.waitForText("The build finished (exit code 0)");
    await screen.type("q");
    expect(await screen.exited).toBe(0);
  });

  it("piped, prints the transcript as it settles and ends when the run ends", async () => {
    const stateDir = tempDir("conch-state-");
    const run = await printRun("slow", stateDir);
    const attach = execa(process.execPath, [CONCH, "attach", run.id], {
      reject: false,
      stdin: "ignore",
      env: { ...terminalEnv(stateDir), NO_COLOR: "1" } as Record<string, string>,
    });
    running.push(attach);
    const [result, printed] = await Promise.all([run.proc, attach]);
    expect(result.exitCode).toBe(0);
    expect(printed.exitCode).toBe(0);
    expect(printed.stdout).toContain("› slow");
    expect(printed.stdout).toContain("This answer is deliberately slow");
    expect(printed.stdout).toContain("which is also fine.");

    expect(printed.stdout).not.toMatch(/\u001b/);
  });

  it("exits 4 for a session that is not there", async () => {
    const r = await runConch(["attach", "nope"]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("no session nope");
  });
});
