import { describe, expect, it } from "vitest";
import { contentHash, PreImageStore } from "../../src/store/pre-image-store.js";
import { flush, startWithFake } from "./fake-agent.js";
import { tempDir } from "../support/run-conch.js";

describe("the orchestrator records the agent's writes for undo", () => {
  it("keeps what a write replaced in the store and logs the write, by hash, in the turn that runs", async () => {
    const store = new PreImageStore(tempDir("conch-state-"));
    const { orch, agent } = await startWithFake({ preImages: store });
    orch.send("edit it");
    await agent.hooks.writes!.written({ path: "/tmp/a.txt", replaced: { kind: "file", bytes: Buffer.from("old") }, content: "new" });
    await agent.hooks.writes!.written({ path: "/tmp/b.txt", replaced: { kind: "none" }, content: "fresh" });
    await agent.hooks.writes!.written({ path: "/tmp/big.txt", replaced: { kind: "too_large", size: 9 * 1024 * 1024 }, content: "x" });
    const h = (s: string) => contentHash(Buffer.from(s));
    expect(orch.state.writes?.map(({ turnId, path, before, after, lost }) => ({ turnId, path, before, after, lost }))).toEqual([
      { turnId: "t1", path: "/tmp/a.txt", before: { bytes: 3, sha256: h("old") }, after: { bytes: 3, sha256: h("new") }, lost: undefined },
      { turnId: "t1", path: "/tmp/b.txt", before: null, after: { bytes: 5, sha256: h("fresh") }, lost: undefined },
      {
        turnId: "t1",
        path: "/tmp/big.txt",
        before: { bytes: 9 * 1024 * 1024 },
        after: { bytes: 1, sha256: h("x") },
        lost: "it was 9.0 MiB, more than undo keeps of one file (8.0 MiB)",
      },
    ]);
    expect(store.get("s1", h("old"))?.toString()).toBe("old");
  });

  it("will not plan or apply an undo while a turn runs", async () => {
    const { orch, agent } = await startWithFake({ preImages: new PreImageStore(tempDir("conch-state-")) });
    orch.send("go");
    expect(await orch.planUndo()).toEqual({
      kind: "message",
      error: true,
      lines: ["a turn is running: undo once it is over (Esc cancels it), so the agent is not writing the files meanwhile"],
    });
    agent.respond(0);
    await flush();
  });

  it("tracks no writes without an undo store", async () => {
    const { agent } = await startWithFake();
    expect(agent.hooks.writes).toBeUndefined();
  });
});
