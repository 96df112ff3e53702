import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONCH, runConch, tempDir } from "../support/run-conch.js";
import { markedProcesses } from "../support/marked-processes.js";
import { hostile, markersKilledAfterEach } from "../support/hostile-fixture.js";
import { waitUntil } from "../support/wait.js";

const marker = markersKilledAfterEach();

/** Whether any process with the marker is left, after giving the kernel a moment to reap what conch killed. */
async function leftOver(m: string): Promise<number[]> {
  await waitUntil(() => markedProcesses(m).length === 0, `no process marked ${m} is left`, 3000).catch(() => undefined);
  return markedProcesses(m);
}

describe("conch -p against hostile agents: nothing outlives conch, nothing blocks its exit", () => {
  it("an agent's setsid'd daemon and its SIGTERM-ignoring grandchild are gone when conch returns", async () => {
    const m = marker();
    const r = await runConch(["-p", "hi", "--agent", hostile(m, `--daemons ${m}`)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("hello from the hostile agent");
    expect(await leftOver(m)).toEqual([]);
  });

  it("an agent that ignores SIGTERM itself is killed, with everything it started", async () => {
    const m = marker();
    const r = await runConch(["-p", "hi", "--agent", hostile(m, `--ignore-term --daemons ${m}`)]);
    expect(r.code).toBe(0);
    expect(await leftOver(m)).toEqual([]);
  });

  it("a grandchild holding the agent's stdout open does not hold conch after the result", async () => {
    const m = marker();
    const r = await runConch(["-p", "hi", "--agent", hostile(m, `--hold-stdout ${m}`), "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ stopReason: "end_turn", text: "hello from the hostile agent", exitCode: 0 });
    expect(await leftOver(m)).toEqual([]);
  });

  it("an agent that exits 0 right after end_turn ends the run normally: exit 0, the answer, no error", async () => {
    const m = marker();
    const text = await runConch(["-p", "hi", "--agent", hostile(m, "--exit-after-end-turn")]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("hello from the hostile agent");
    expect(text.stderr).not.toContain("agent exited");
    const json = await runConch(["-p", "hi", "--agent", hostile(m, "--exit-after-end-turn"), "--output-format", "json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ stopReason: "end_turn", exitCode: 0, error: null });
  });

  it("an agent that never answers initialize: the start-up timeout ends it with its stderr tail, exit 1", async () => {
    const m = marker();
    const r = await runConch(["-p", "hi", "--agent", hostile(m, "--no-init"), "--start-timeout", "0.5"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("did not answer initialize within 0.5 s");
    expect(r.stderr).toContain("booting, please wait forever");
    expect(await leftOver(m)).toEqual([]);
  });

  it("the start-up timeout can come from the config (ui.startTimeoutSeconds)", async () => {
    const m = marker();
    const home = tempDir();
    mkdirSync(path.join(home, "conch"));
    writeFileSync(path.join(home, "conch/config.json"), JSON.stringify({ ui: { startTimeoutSeconds: 0.5 } }));
    const r = await runConch(["-p", "hi", "--agent", hostile(m, "--no-init")], { env: { XDG_CONFIG_HOME: home } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("did not answer initialize within 0.5 s");
  });

  it("an agent that never answers initialize: --timeout ends the run too, exit 3", async () => {
    const m = marker();
    const r = await runConch(["-p", "hi", "--agent", hostile(m, "--no-init"), "--timeout", "0.5"]);
    expect(r.code).toBe(3);
    expect(await leftOver(m)).toEqual([]);
  });

  it("SIGINT while the agent has not answered initialize: conch stops it and exits 130", async () => {
    const m = marker();
    const child = spawn(process.execPath, [CONCH, "-p", "hi", "--agent", hostile(m, "--no-init --ignore-term")], {
      cwd: tempDir(),
      env: { ...process.env, CONCH_STATE_DIR: tempDir() },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // The agent runs (its argv has the marker; conch's own argv too).
    await waitUntil(() => markedProcesses(m).length >= 2, "the agent is starting");
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(await leftOver(m)).toEqual([]);
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it("a byte order mark before the initialize response does not hang conch", async () => {
    const r = await runConch(["-p", "hi", "--agent", hostile(marker(), "--bom")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("hello from the hostile agent");
  });

  it("a message nested 100k levels deep neither crashes conch nor loses the turn", async () => {
    const r = await runConch(["-p", "hi", "--agent", hostile(marker(), "--deep 100000"), "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ text: "deephello from the hostile agent", exitCode: 0 });
    expect(r.stderr).not.toContain("Maximum call stack");
  });
});
