import { describe, expect, it } from "vitest";
import { RowQueue } from "../../../src/ui/transcript/row-queue.js";

const rows = (n: number, width: number) => Array.from({ length: n }, (_, i) => `${i}`.padEnd(width, "x"));

describe("RowQueue", () => {
  it("hands out the rows in pieces that add up to the whole, in order", () => {
    const queue = new RowQueue();
    const all = rows(500, 37);
    queue.push(all.slice(0, 200));
    queue.push(all.slice(200));
    expect(queue.size).toBe(500 * 38);
    const pieces: string[] = [];
    for (let piece = queue.take(1000); piece !== undefined; piece = queue.take(1000)) pieces.push(piece);
    expect(pieces.join("")).toBe(`${all.join("\n")}\n`);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(1000);
    expect(queue.size).toBe(0);
  });

  it("takes a row longer than a piece whole", () => {
    const queue = new RowQueue();
    queue.push(["a".repeat(50), "b"]);
    expect(queue.take(10)).toBe(`${"a".repeat(50)}\n`);
    expect(queue.size).toBe(2);
    expect(queue.take(10)).toBe("b\n");
    expect(queue.take(10)).toBeUndefined();
  });

  it("takes everything without a limit, and nothing after a clear", () => {
    const queue = new RowQueue();
    queue.push(["one", "", "three"]);
    expect(queue.take()).toBe("one\n\nthree\n");
    queue.push(["four"]);
    queue.clear();
    expect(queue.size).toBe(0);
    expect(queue.take()).toBeUndefined();
  });
});
