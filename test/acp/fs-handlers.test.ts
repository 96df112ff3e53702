import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readTextFile, writeTextFile } from "../../src/acp/fs-handlers.js";
import { agentMessageStream } from "../../src/acp/message-stream.js";
import { tempDir } from "../support/run-conch.js";

const sid = "s";

describe("fs/* handlers", () => {
  it("reads a whole file, or limit lines from a 1-based line", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "a.txt"), "one\ntwo\nthree\nfour\n");
    expect((await readTextFile(root, { sessionId: sid, path: path.join(root, "a.txt") })).content).toBe("one\ntwo\nthree\nfour\n");
    expect((await readTextFile(root, { sessionId: sid, path: path.join(root, "a.txt"), line: 2, limit: 2 })).content).toBe("two\nthree");
  });

  it("a missing file is a resource-not-found error (-32002)", async () => {
    const root = tempDir();
    await expect(readTextFile(root, { sessionId: sid, path: path.join(root, "nope.txt") })).rejects.toMatchObject({ code: -32002 });
  });

  it("refuses a path outside the workspace, and a symlink that points out of it", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, "secret.txt"), "secret");
    symlinkSync(outside, path.join(root, "link"));
    await expect(readTextFile(root, { sessionId: sid, path: path.join(outside, "secret.txt") })).rejects.toThrow(/outside the workspace/);
    await expect(readTextFile(root, { sessionId: sid, path: path.join(root, "../x") })).rejects.toThrow(/outside the workspace/);
    await expect(readTextFile(root, { sessionId: sid, path: path.join(root, "link/secret.txt") })).rejects.toThrow(/outside the workspace/);
    await expect(writeTextFile(root, { sessionId: sid, path: path.join(root, "link/new.txt"), content: "x" })).rejects.toThrow(
      /outside the workspace/,
    );
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
  });

  it("writes atomically, creating parent dirs, leaving no temp file behind", async () => {
    const root = tempDir();
    await writeTextFile(root, { sessionId: sid, path: path.join(root, "sub/dir/new.txt"), content: "hello" });
    expect(readFileSync(path.join(root, "sub/dir/new.txt"), "utf8")).toBe("hello");
    mkdirSync(path.join(root, "keep"));
    writeFileSync(path.join(root, "keep/f.txt"), "old");
    await writeTextFile(root, { sessionId: sid, path: path.join(root, "keep/f.txt"), content: "new" });
    expect(readdirSync(path.join(root, "keep"))).toEqual(["f.txt"]);
    expect(readFileSync(path.join(root, "keep/f.txt"), "utf8")).toBe("new");
  });
});

describe("the agent's message stream", () => {
  it("reports a malformed line and keeps reading the messages after it", async () => {
    const stdout = new PassThrough();
    const malformed: string[] = [];
    const seen: unknown[] = [];
    const stream = agentMessageStream(stdout, new PassThrough(), {
      onMalformed: (line) => malformed.push(line),
      onMessage: (_dir, msg) => seen.push(msg),
    });
    stdout.write('{"jsonrpc":"2.0","method":"a"}\nnot json at all\n{"no":"jsonrpc"}\n{"jsonrpc":"2.0","me');
    stdout.end('thod":"b"}\n');
    const reader = stream.readable.getReader();
    const got: unknown[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      got.push(value);
    }
    expect(got).toEqual([
      { jsonrpc: "2.0", method: "a" },
      { jsonrpc: "2.0", method: "b" },
    ]);
    expect(malformed).toEqual(["not json at all", '{"no":"jsonrpc"}']);
    expect(seen).toHaveLength(2);
  });
});

import { profileFor } from "../../src/session/profiles/select-profile.js";

describe("agent quirks", () => {
  it("gemini-cli reads a missing file as empty (it must, to create files); other agents get resource-not-found", async () => {
    const root = tempDir();
    const gemini = profileFor({ name: "gemini-cli", version: "0.61.0" });
    expect(gemini.missingFileReadsAsEmpty).toBe(true);
    expect(
      await readTextFile(root, { sessionId: sid, path: path.join(root, "new.py") }, { missingAsEmpty: gemini.missingFileReadsAsEmpty }),
    ).toEqual({ content: "" });
    expect(profileFor({ name: "codex-acp", version: "0.16.0" }).missingFileReadsAsEmpty).toBe(false);
  });

  it("lines the agent writes after the connection closed are dropped, not a crash", () => {
    const stdout = new PassThrough();
    const stream = agentMessageStream(stdout, new PassThrough());
    void stream.readable.cancel();
    expect(() => stdout.write('{"jsonrpc":"2.0","method":"late"}\n')).not.toThrow();
    stdout.end();
  });
});
