import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { contentHash, PreImageStore } from "../../src/store/pre-image-store.js";
import { deleteSession } from "../../src/store/session-index.js";
import { preImageDirPath } from "../../src/store/state-dir.js";
import { useTempRoot } from "./helpers.js";

const tempRoot = useTempRoot();

describe("the undo store (what agents' writes replaced)", () => {
  it("keeps content under its hash, once, in a 0700 folder of 0600 files next to the session logs", () => {
    const root = tempRoot();
    const store = new PreImageStore(root);
    const bytes = Buffer.from("hello\n");
    expect(store.put("s1", bytes)).toEqual({ kept: true, sha256: contentHash(bytes) });
    expect(store.put("s1", bytes)).toEqual({ kept: true, sha256: contentHash(bytes) });
    const dir = preImageDirPath("s1", root);
    expect(path.dirname(dir)).toBe(path.join(root, "sessions"));
    expect(readdirSync(dir)).toEqual([contentHash(bytes)]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, contentHash(bytes))).mode & 0o777).toBe(0o600);
    expect(store.get("s1", contentHash(bytes))?.toString()).toBe("hello\n");
    expect(store.get("s2", contentHash(bytes))).toBeUndefined();
  });

  it("does not keep a file over the per-file cap, and says why", () => {
    const store = new PreImageStore(tempRoot(), { fileBytes: 10, sessionBytes: 100 });
    const result = store.put("s1", Buffer.alloc(11));
    expect(result).toMatchObject({ kept: false, why: "it was 0.0 MiB, more than undo keeps of one file (0.0 MiB)" });
    expect(store.size("s1")).toBe(0);
  });

  it("stays within the session cap by dropping what was used longest ago; content written over again counts as used", () => {
    const root = tempRoot();
    const store = new PreImageStore(root, { fileBytes: 10, sessionBytes: 25 });
    const [a, b, c, d] = ["a", "b", "c", "d"].map((x) => Buffer.from(x.repeat(10)));
    vi.useFakeTimers({ toFake: ["Date"] });
    // Each put is "later" than the one before it, whatever the file system's time resolution.
    const at = (s: number) => vi.setSystemTime(new Date(2030, 0, 1, 0, 0, s));
    try {
      at(1);
      store.put("s1", a);
      at(2);
      store.put("s1", b);
      at(3);
      store.put("s1", a); // a is used again: b is now the oldest
      at(4);
      store.put("s1", c);
      expect(store.get("s1", contentHash(b))).toBeUndefined();
      expect(store.get("s1", contentHash(a))).toBeDefined();
      expect(store.get("s1", contentHash(c))).toBeDefined();
      at(5);
      store.put("s1", d);
      expect(store.get("s1", contentHash(a))).toBeUndefined();
      expect(store.size("s1")).toBeLessThanOrEqual(25);
      // A new process reads what is kept from the folder.
      expect(new PreImageStore(root, { fileBytes: 10, sessionBytes: 25 }).size("s1")).toBe(20);
    } finally {
      vi.useRealTimers();
    }
  });

  it("hands back nothing for content that no longer matches its hash, or a name that is not one", () => {
    const root = tempRoot();
    const store = new PreImageStore(root);
    const { sha256 } = store.put("s1", Buffer.from("original"));
    writeFileSync(path.join(preImageDirPath("s1", root), sha256), "tampered");
    expect(store.get("s1", sha256)).toBeUndefined();
    expect(store.get("s1", "../../index.json")).toBeUndefined();
  });

  it("deleting a session deletes its undo store", async () => {
    const root = tempRoot();
    const { sha256 } = new PreImageStore(root).put("s1", Buffer.from("x"));
    await deleteSession("s1", root);
    expect(new PreImageStore(root).get("s1", sha256)).toBeUndefined();
    expect(existsSync(preImageDirPath("s1", root))).toBe(false);
  });
});
