import { describe, expect, it } from "vitest";
import { OutputLog } from "../../src/terminals/output-log.js";

/** No lone surrogates: a UTF-8 round trip would turn one into U+FFFD. */
const isWellFormed = (text: string): boolean => Buffer.from(text, "utf8").toString("utf8") === text;

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

describe("OutputLog", () => {
  it("keeps everything under the limit and says nothing was truncated", () => {
    const log = new OutputLog(100);
    log.append("hello ");
    log.append("world");
    expect(log.text).toBe("hello world");
    expect(log.truncated).toBe(false);
  });

  it("drops the oldest output, cutting a two-byte character whole rather than in half", () => {
    const log = new OutputLog(7);
    log.append("éééé"); // 8 bytes
    expect(log.text).toBe("ééé"); // 6 bytes: 7 would split an é
    expect(log.truncated).toBe(true);
  });

  it("never splits a surrogate pair", () => {
    const log = new OutputLog(9);
    for (let i = 0; i < 10; i++) log.append("😀");
    expect(log.text).toBe("😀😀");
    expect(isWellFormed(log.text)).toBe(true);
    expect(log.truncated).toBe(true);
  });

  it("truncates across many chunks and stays within the limit", () => {
    const log = new OutputLog(1001);
    for (let i = 0; i < 5000; i++) log.append(i % 3 === 0 ? "a" : i % 3 === 1 ? "é" : "語");
    expect(bytes(log.text)).toBeLessThanOrEqual(1001);
    expect(bytes(log.text)).toBeGreaterThanOrEqual(998);
    expect(log.byteLength).toBe(bytes(log.text));
    expect(log.text.endsWith("aé")).toBe(true);
  });

  it("keeps exactly the newest output when a flood runs far past the limit, ASCII and not", () => {
    const log = new OutputLog(100_000);
    let all = "";
    for (let i = 0; i < 3000; i++) {
      const chunk = i % 7 === 3 ? `line ${i} é語😀\r\n` : `line ${i} ${"x".repeat(i % 50)}\r\n`;
      log.append(chunk);
      all += chunk;
    }
    const kept = log.text;
    expect(bytes(kept)).toBeLessThanOrEqual(100_000);
    expect(bytes(kept)).toBeGreaterThanOrEqual(100_000 - 3);
    expect(all.endsWith(kept)).toBe(true);
    expect(isWellFormed(kept)).toBe(true);
    expect(log.byteLength).toBe(bytes(kept));
  });

  it("keeps the longest whole-character tail within the limit, below a piece's size and above it", () => {
    // The newest output that fits: the shortest whole-character cut from the front of everything.
    const expected = (all: string, limit: number): string => {
      let cut = 0;
      let excess = bytes(all) - limit;
      while (excess > 0) {
        const code = all.codePointAt(cut)!;
        excess -= code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
        cut += code >= 0x10000 ? 2 : 1;
      }
      return all.slice(cut);
    };
    for (const limit of [64 * 1024, 300 * 1024]) {
      const log = new OutputLog(limit);
      let all = "";
      for (let i = 0; i < 2500; i++) {
        // Reads of a PTY (up to 4 KiB), now and then one larger than the whole limit.
        const size = i % 400 === 399 ? limit + 5000 : 1 + ((i * 7919) % 4096);
        const chunk = (i % 5 === 0 ? "é語😀 " : "line ").repeat(Math.ceil(size / 5)).slice(0, size);
        log.append(chunk);
        all += chunk;
        if (i % 250 === 0 || i === 2499) {
          expect(log.text).toBe(expected(all, limit));
          expect(log.byteLength).toBe(bytes(log.text));
        }
      }
      expect(log.truncated).toBe(true);
    }
  });

  it("keeps nothing with a zero limit", () => {
    const log = new OutputLog(0);
    log.append("x");
    expect(log.text).toBe("");
    expect(log.truncated).toBe(true);
  });
});
