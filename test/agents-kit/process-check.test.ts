import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { processCheck } from "../agents/support/real-agents.js";
import { waitUntil } from "../support/wait.js";

const started: ChildProcess[] = [];
afterEach(() => {
  for (const p of started.splice(0)) p.kill("SIGKILL");
});

/** A process whose command line holds `marker`, as a leftover `sleep 30` would. */
function leftover(marker: string, cwd: string, env: NodeJS.ProcessEnv = {}): number {
  const env0 = { ...process.env };
  delete env0.REAL_AGENTS_RUN;
  const p = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30_000)", marker], { cwd, env: { ...env0, ...env }, stdio: "ignore" });
  started.push(p);
  return p.pid!;
}

describe("the kit's check for leftover processes (processCheck)", () => {
  it("counts only this run's processes: not the same command of another run on the machine", async () => {
    const run = mkdtempSync(path.join(tmpdir(), "conch-kit-run-"));
    const other = mkdtempSync(path.join(tmpdir(), "conch-kit-other-"));
    mkdirSync(path.join(run, "project"));
    mkdirSync(path.join(run, "out"));
    const marker = `conch-leftover-${process.pid}-${Date.now()}`;
    const inProject = leftover(marker, path.join(run, "project"));
    const withRunEnv = leftover(marker, other, { REAL_AGENTS_RUN: run });
    const otherRun = leftover(marker, other, { REAL_AGENTS_RUN: other });
    await waitUntil(
      () => [inProject, withRunEnv, otherRun].every((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker)),
      "the three processes run",
      5_000,
    );
    const step = processCheck("left", marker) as { script: string };
    await execa("sh", ["-c", step.script], { cwd: run, env: { OUT: path.join(run, "out"), REAL_AGENTS_RUN: run } });
    const found = readFileSync(path.join(run, "out", "extra-left"), "utf8")
      .trim()
      .split("\n")
      .map((l) => Number(l.split(" ")[0]));
    expect(found.sort()).toEqual([inProject, withRunEnv].sort());
  });
});
