import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { client, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { createDemoAgent } from "../../src/demo/demo-agent.js";
import { MARKDOWN_ANSWER } from "../../src/demo/scenarios/markdown.js";

describe("the demo agent with the SDK's own client", () => {
  it("connects in-process and streams the markdown answer to an ActiveSession", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "conch-demo-sdk-"));
    const demo = createDemoAgent({
      config: { delayMs: 0, backgroundMs: 10, floodChunks: 10, stateDir, loadMs: 0, requireAuth: false },
      processControl: { exit: () => undefined, writeStderr: () => undefined },
    });
    const result = await client({ name: "sdk-test" }).connectWith(demo.app, async (agent) => {
      await agent.request("initialize", { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      return agent.buildSession(stateDir).withSession(async (session) => {
        const response = session.prompt("/markdown");
        const text = await session.readText();
        return { text, stopReason: (await response).stopReason };
      });
    });
    expect(result).toEqual({ text: MARKDOWN_ANSWER, stopReason: "end_turn" });
  });
});
