// conch --agent ws://… and http://…: the demo agent behind a local bridge, in print mode and as a
// session whose connection drops and comes back.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareSession } from "../../src/cli/session-setup.js";
import { startDemoBridge, type DemoBridge } from "../support/demo-bridge.js";
import { runConch, tempDir } from "../support/run-conch.js";
import { untilState } from "../support/until-state.js";

const demoState = tempDir("conch-demo-");
const demoEnv = { CONCH_DEMO_STATE: demoState, CONCH_DEMO_DELAY_MS: "0" };
let bridge: DemoBridge;
beforeAll(async () => {
  bridge = await startDemoBridge(demoEnv);
});
afterAll(async () => {
  await bridge?.kill();
});

const until = untilState;

describe("conch -p against a remote agent", () => {
  it.each(["ws", "http"] as const)("over %s: streams the answer, exits 0, and --trace records the messages", async (transport) => {
    const trace = path.join(tempDir("conch-trace-"), "trace.jsonl");
    const r = await runConch(["-p", "markdown", "--agent", bridge[transport], "--trace", trace, "--output-format", "json"], {
      env: demoEnv,
    });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.agent).toBe("conch-demo");
    expect(result.text).toContain("export function greet");
    const methods = readFileSync(trace, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { dir: string; msg?: { method?: string } })
      .filter((l) => l.dir === "client" && l.msg?.method)
      .map((l) => l.msg!.method);
    expect(methods.slice(0, 3)).toEqual(["initialize", "session/new", "session/prompt"]);
    // No terminal login offered over a connection: conch cannot run a remote agent's command.
    expect(readFileSync(trace, "utf8")).toContain('"auth":{"terminal":false}');
  });

  it("says what went wrong when nothing listens at the URL (exit 1)", async () => {
    const r = await runConch(["-p", "hello", "--agent", "ws://127.0.0.1:9"], { env: demoEnv });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ws:\/\/127\.0\.0\.1:9/);
  });
});

describe("a dropped connection", () => {
  it("fails the session with a clear message, and a restart reconnects and resumes the same session, traced in one file", async () => {
    const own = await startDemoBridge(demoEnv);
    const trace = path.join(tempDir("conch-trace-"), "trace.jsonl");
    const prepared = await prepareSession({ agent: own.ws, continue: false, cwd: tempDir(), trace }, "approve-all");
    const orch = prepared.orchestrator;
    try {
      await orch.start(prepared.mode);
      orch.send("hello");
      await until(orch, (s) => s.phase === "idle" && s.turns.length === 1);
      const sid = orch.state.info!.sessionId;

      await own.kill();
      const failed = await until(orch, (s) => s.phase === "failed");
      expect(failed.failure?.message).toBe(`the connection to ${new URL(own.ws).href} was lost`);

      const back = await startDemoBridge(demoEnv, own.port);
      try {
        await orch.restart();
        expect(orch.state.phase).toBe("idle");
        expect(orch.state.info?.sessionId).toBe(sid);
        expect(orch.state.info?.origin).toBe("resume");
        orch.send("refuse");
        const s = await until(orch, (st) => st.phase === "idle" && st.turns.length === 2);
        expect(s.turns[1].stopReason).toBe("refusal");
        const sent = readFileSync(trace, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { dir: string; msg?: { method?: string } })
          .filter((l) => l.dir === "client" && l.msg?.method && l.msg.method !== "session/prompt")
          .map((l) => l.msg!.method);
        expect(sent).toEqual(["initialize", "session/new", "initialize", "session/resume"]);
      } finally {
        await orch.shutdown();
        await back.kill();
      }
    } finally {
      await orch.shutdown();
      await prepared.recorder.close();
      await own.kill().catch(() => undefined);
    }
  });
});
