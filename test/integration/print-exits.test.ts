import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CONCH, runConch, tempDir } from "../support/run-conch.js";
import { markedProcesses } from "../support/marked-processes.js";
import { hostile, markersKilledAfterEach } from "../support/hostile-fixture.js";
import { waitUntil } from "../support/wait.js";

// How a print run ends, as a script and the person reading its stderr see it: every non-zero exit
// says why in one line, and a signal ends the run with its result whatever the agent does.

const marker = markersKilledAfterEach();

/** The lines conch itself wrote on stderr (`conch: …`). */
const conchLines = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("conch: "));

describe("a non-zero exit says why on stderr, in one line", () => {
  it("refusal (6) and max_tokens (7) name the stop reason", async () => {
    const refused = await runConch(["-p", "refuse", "--agent", "demo"]);
    expect(refused.code).toBe(6);
    expect(conchLines(refused.stderr)).toEqual(["conch: the agent refused to go on (stop reason refusal, exit 6)"]);
    const cut = await runConch(["-p", "maxtokens", "--agent", "demo"]);
    expect(cut.code).toBe(7);
    expect(conchLines(cut.stderr)).toEqual([
      "conch: the agent stopped at its output token limit: the answer is cut off (stop reason max_tokens, exit 7)",
    ]);
  });

  it("a stop reason conch does not know is exit 1, and named", async () => {
    const r = await runConch(["-p", "hi", "--agent", hostile(marker(), "--stop-reason out_of_cheese")]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("hello from the hostile agent");
    expect(conchLines(r.stderr)).toEqual([
      'conch: the agent ended the turn with a stop reason conch does not know: "out_of_cheese" (exit 1)',
    ]);
  });

  it("the same run in json says nothing on stderr: the result object carries it", async () => {
    const r = await runConch(["-p", "refuse", "--agent", "demo", "--output-format", "json"]);
    expect(r.code).toBe(6);
    expect(conchLines(r.stderr)).toEqual([]);
    expect(JSON.parse(r.stdout)).toMatchObject({ stopReason: "refusal", exitCode: 6 });
  });
});

describe("a malformed tool call", () => {
  it("a tool call without a toolCallId is refused at once, not waited on until the stall timeout", async () => {
    const r = await runConch([
      "-p",
      "hi",
      "--agent",
      hostile(marker(), "--no-tool-call-id"),
      "--output-format",
      "json",
      "--stall-timeout",
      "20",
    ]);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ stopReason: "end_turn", exitCode: 0, toolCalls: [] });
    const text = await runConch(["-p", "hi", "--agent", hostile(marker(), "--no-tool-call-id"), "--stall-timeout", "20"]);
    expect(text.code).toBe(0);
    expect(text.stderr).toContain('[warning] the agent sent a tool_call ("No id") without a toolCallId: ignored as malformed');
    expect(text.stderr).not.toContain("stalled");
  }, 60_000);
});

/** conch -p in the background, its output read as it comes, and a way to signal it. */
function startPrint(args: string[]) {
  const child = spawn(process.execPath, [CONCH, "-p", ...args], {
    cwd: tempDir(),
    env: { ...process.env, CONCH_STATE_DIR: tempDir(), NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = { stdout: "", stderr: "" };
  child.stdout.on("data", (d) => (out.stdout += String(d)));
  child.stderr.on("data", (d) => (out.stderr += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, out, exited };
}

describe("SIGINT in print mode, with an agent that ignores session/cancel (and SIGTERM)", () => {
  it("the first SIGINT ends the run: exit 130, the result printed, the agent's tree stopped", async () => {
    const m = marker();
    const run = startPrint(["hi", "--agent", hostile(m, `--ignore-cancel --ignore-term --daemons ${m}`), "--output-format", "stream-json"]);
    await waitUntil(() => run.out.stdout.includes('"type":"text"'), "the agent streams its answer", 15_000);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(130);
    const last = JSON.parse(run.out.stdout.trim().split("\n").at(-1)!);
    expect(last).toMatchObject({ type: "result", exitCode: 130, text: "hello from the hostile agent" });
    await waitUntil(() => markedProcesses(m).length === 0, "nothing of the agent is left", 3000);
  }, 30_000);

  it("in text mode the answer so far is on stdout, and stderr says it was interrupted", async () => {
    const m = marker();
    const run = startPrint(["hi", "--agent", hostile(m, "--ignore-cancel")]);
    await waitUntil(() => run.out.stdout.includes("hello from the hostile agent"), "the agent streams its answer", 15_000);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(130);
    expect(conchLines(run.out.stderr)).toContain("conch: interrupted: the turn was cancelled (exit 130)");
  }, 30_000);

  it("a second SIGINT does not wait at all, and still prints the result", async () => {
    const m = marker();
    const run = startPrint(["hi", "--agent", hostile(m, "--ignore-cancel --ignore-term"), "--output-format", "stream-json"]);
    await waitUntil(() => run.out.stdout.includes('"type":"text"'), "the agent streams its answer", 15_000);
    run.child.kill("SIGINT");
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(130);
    expect(JSON.parse(run.out.stdout.trim().split("\n").at(-1)!)).toMatchObject({ type: "result", exitCode: 130 });
    await waitUntil(() => markedProcesses(m).length === 0, "nothing of the agent is left", 3000);
  }, 30_000);
});
