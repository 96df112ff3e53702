import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONCH, ROOT, tempDir } from "../support/run-conch.js";

const FLOOD_AGENT = `${process.execPath} ${path.join(ROOT, "bench/lib/flood-agent.mjs")}`;
const CALLS = 10_000;

describe("conch -p --output-format stream-json with a reader slower than conch", () => {
  it("leaves the agent's output in its pipe while stdout is behind, then streams every line in order", async () => {
    const state = tempDir("conch-state-");
    const times = path.join(state, "flood-times.json");
    const child = spawn(
      process.execPath,
      [CONCH, "-p", "flood", "--agent", FLOOD_AGENT, "--output-format", "stream-json", "--quiet-ms", "0"],
      {
        cwd: tempDir("conch-cwd-"),
        env: { ...process.env, CONCH_STATE_DIR: state, FLOOD_KIND: "tools", FLOOD_N: String(2 * CALLS), FLOOD_TIMES: times },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const chunks: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => chunks.push(d));
    // The first line read, the reader stops reading for a while.
    await once(child.stdout, "data");
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // Its flood is ~1.7 MB of stream-json: conch, holding reads, has not let the agent write it all.
    expect(existsSync(times)).toBe(false);
    child.stdout.resume();
    const [code] = (await once(child, "close")) as [number | null];
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const lines = Buffer.concat(chunks)
      .toString("utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; subtype?: string; id?: string; status?: string });
    const calls = lines.filter((l) => l.type === "tool_call");
    expect(calls).toHaveLength(2 * CALLS);
    calls.forEach((l, i) => {
      expect(l.id).toBe(`t${i >> 1}`);
      expect(l.subtype).toBe(i % 2 === 0 ? "start" : "update");
      expect(l.status).toBe(i % 2 === 0 ? "in_progress" : "completed");
    });
    expect(lines.at(-1)?.type).toBe("result");
    expect(existsSync(times)).toBe(true);
  }, 30_000);
});
