// The entry point as a real child process. The repo build may be broken by unrelated
// work in progress, so this compiles just the trace-replay folder into a temp dir.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTrace, selectProcess, type TraceSegment } from "../../src/demo/trace-replay/load-trace.js";
import { spawnReplayAgentCommand } from "../../src/demo/trace-replay/spawn.js";
import { playConchLike, sentAfter } from "./conch-like-client.js";
import { OutputCollector, playRecordedClient, TEST_VALUES, TRACES_DIR, type ClientSide } from "./recorded-client.js";

const SRC = join(import.meta.dirname, "../../src/demo/trace-replay");
let outDir = "";
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "trace-replay-build-"));
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  await promisify(execFile)(process.execPath, [
    tsc,
    ...["--outDir", outDir, "--rootDir", SRC, "--module", "nodenext", "--moduleResolution", "nodenext"],
    ...["--target", "es2022", "--strict", "--skipLibCheck", join(SRC, "main.ts")],
  ]);
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

interface Child {
  child: ChildProcessWithoutNullStreams;
  client: ClientSide;
  segment: TraceSegment;
  stderr: () => string;
  exit: Promise<[number | null, string | null]>;
}

async function startChild(file: string, process = 1, extra: { speed?: number; causal?: boolean } = {}): Promise<Child> {
  const path = join(TRACES_DIR, file);
  const { command, args } = spawnReplayAgentCommand(path, {
    process,
    speed: extra.speed ?? Number.POSITIVE_INFINITY,
    causal: extra.causal,
    home: TEST_VALUES.home,
    tmpdir: TEST_VALUES.tmpdir,
    mainPath: join(outDir, "main.js"),
  });
  const child = spawn(command, args, { stdio: "pipe" });
  children.push(child);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exit = new Promise<[number | null, string | null]>((resolve) => child.on("exit", (code, signal) => resolve([code, signal])));
  const client: ClientSide = {
    collector: new OutputCollector(child.stdout),
    send: (msg) => child.stdin.write(`${JSON.stringify(msg)}\n`),
  };
  return { child, client, segment: selectProcess(await loadTrace(path), process), stderr: () => stderr, exit };
}

describe("main.js as a child process", () => {
  it("plays a trace over stdio and exits 0 on EOF, as gemini did (g2)", async () => {
    const { child, client, segment, stderr, exit } = await startChild("gemini-cli-0.61.0/g2.jsonl");
    const expected = await playRecordedClient(segment, client, TEST_VALUES, true);
    expect(client.collector.lines).toEqual(expected.map((m) => JSON.stringify(m)));
    child.stdin.end();
    expect(await exit).toEqual([0, null]);
    const answers = stderr()
      .split("\n")
      .filter((line) => line.includes('"client-answer"'))
      .map((line) => JSON.parse(line) as { method: string });
    expect(answers.map((a) => a.method)).toEqual(["session/request_permission", "session/request_permission"]);
  });

  it("keeps running after EOF until SIGTERM, as codex did (c2)", async () => {
    const { child, client, segment, exit } = await startChild("codex-acp-0.16.0/c2.jsonl");
    await playRecordedClient(segment, client, TEST_VALUES, true);
    child.stdin.end();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(child.exitCode).toBeNull();
    child.kill("SIGTERM");
    expect(await exit).toEqual([null, "SIGTERM"]);
  });

  it("--causal: a conch-like client gets 0.100.0 s4's late follow-up before it sends p2", async () => {
    const file = "claude-agent-acp-0.100.0/s4-background-bash.terminal_output.jsonl";
    const { child, client, segment, exit } = await startChild(file, 1, { speed: 20, causal: true });
    const run = await playConchLike(segment, client, TEST_VALUES, { quietMs: 150, waitForTerminals: true });
    const sorted = (lines: string[]): string[] => [...lines].sort();
    expect(sorted(client.collector.lines)).toEqual(sorted(run.expected.map((m) => JSON.stringify(m))));
    const readId = '"toolCallId":"toolu_s4_task_notification_read_1_1"';
    const read1 = client.collector.lines.findIndex((l) => l.includes(readId));
    expect(read1).toBeGreaterThanOrEqual(0);
    expect(read1).toBeLessThan(sentAfter(run, "p2"));
    child.stdin.end();
    expect(await exit).toEqual([0, null]);
  });

  it("plays a later process of a multi-process trace (c5 --process 2)", async () => {
    const { child, client, segment, exit } = await startChild("codex-acp-0.16.0/c5.jsonl", 2);
    const expected = await playRecordedClient(segment, client, TEST_VALUES, true);
    expect(client.collector.lines).toEqual(expected.map((m) => JSON.stringify(m)));
    child.kill("SIGTERM");
    await exit;
  });
});
