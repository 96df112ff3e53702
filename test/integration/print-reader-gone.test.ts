import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { CONCH, tempDir } from "../support/run-conch.js";

describe("conch -p when the reader of its output goes away (| head -1)", () => {
  it("stops the run as Ctrl-C does: exit 130, no stack trace on stderr", async () => {
    const child = spawn(process.execPath, [CONCH, "--agent", "demo", "-p", "tour"], {
      cwd: tempDir("conch-cwd-"),
      env: { ...process.env, CONCH_STATE_DIR: tempDir("conch-state-"), CONCH_DEMO_DELAY_MS: "20", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // The first line read, the reader closes its end, as `head -1` does.
    await once(child.stdout, "data");
    child.stdout.destroy();
    const [code] = (await once(child, "exit")) as [number | null];
    expect(stderr).not.toMatch(/Unhandled|EPIPE|node:events/);
    expect(code).toBe(130);
  });
});
