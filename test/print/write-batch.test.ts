import { describe, expect, it } from "vitest";
import { WriteBatch } from "../../src/print/write-batch.js";

const turn = () => new Promise((r) => setImmediate(r));

describe("output written together", () => {
  it("pieces queued in one turn go out in one write per output, in the order they were queued", async () => {
    const writes: string[] = [];
    const out = (t: string) => writes.push(`out:${t}`);
    const err = (t: string) => writes.push(`err:${t}`);
    const batch = new WriteBatch();
    batch.push(out, "a");
    batch.push(out, "b");
    batch.push(err, "[tool] x\n");
    batch.push(out, "c");
    expect(writes).toEqual(["out:ab", "err:[tool] x\n"]);
    await turn();
    expect(writes).toEqual(["out:ab", "err:[tool] x\n", "out:c"]);
  });

  it("flush writes what is queued at once, and nothing when nothing is", () => {
    const writes: string[] = [];
    const batch = new WriteBatch();
    batch.flush();
    batch.push((t) => writes.push(t), "line\n");
    batch.flush();
    batch.flush();
    expect(writes).toEqual(["line\n"]);
  });
});
