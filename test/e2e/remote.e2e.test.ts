// conch --agent ws://… in a real terminal: the demo agent behind a local bridge, the same UI, a
// dropped connection reported, and /restart reconnecting to the same session.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoBridge, type DemoBridge } from "../support/demo-bridge.js";
import { Screen, terminalEnv } from "./screen.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin/conch.js");

describe("conch's TUI with a remote agent over WebSocket", () => {
  let screen: Screen;
  let bridge: DemoBridge | undefined;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-project-"));
    const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
    env = terminalEnv(state);
    bridge = await startDemoBridge({ CONCH_DEMO_STATE: env.CONCH_DEMO_STATE!, CONCH_DEMO_DELAY_MS: "0" });
    screen = new Screen({ command: process.execPath, args: [BIN, "--agent", bridge.ws], cwd: project, env, cols: 100, rows: 30 });
    await screen.waitForText("conch demo agent", 15_000);
  });

  afterAll(async () => {
    await screen?.kill();
    await bridge?.kill();
  });

  it("works like a local agent: a message streams its answer", async () => {
    await screen.waitForText("message the agent", 5_000, "visible");
    await screen.submit("hello");
    await screen.waitForText("Type a keyword (or /keyword)");
    await screen.submit("markdown");
    await screen.waitForText("export function greet");
    await screen.waitForText("message the agent", 5_000, "visible");
  });

  it("reports a dropped connection, and /restart reconnects and resumes the session", async () => {
    const port = bridge!.port;
    await bridge!.kill();
    await screen.waitForText(`the connection to ws://127.0.0.1:${port}/ was lost`, 10_000);
    await screen.waitForText("/restart to try again", 5_000, "visible");

    bridge = await startDemoBridge({ CONCH_DEMO_STATE: env.CONCH_DEMO_STATE!, CONCH_DEMO_DELAY_MS: "0" }, port);
    await screen.submit("/restart");
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.submit("refuse");
    await screen.waitForText("This is a scripted refusal");
    // The same conversation: what came before the drop is still there, and nothing was replayed twice.
    const text = screen.text();
    expect(text).toContain("export function greet");
    expect(text.split("export function greet").length - 1).toBe(1);
  });
});
