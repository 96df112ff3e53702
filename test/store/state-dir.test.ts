import { statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentLogPath, ensureStateDir, fileNameFor, resolveStateDir, sessionLogPath, sessionsDir } from "../../src/store/state-dir.js";
import { permissions, useTempRoot, withPermissiveUmask } from "./helpers.js";

describe("resolveStateDir", () => {
  it("prefers CONCH_STATE_DIR, then XDG_STATE_HOME/conch, then ~/.local/state/conch", () => {
    expect(resolveStateDir({ CONCH_STATE_DIR: "/tmp/x", XDG_STATE_HOME: "/xdg" })).toBe("/tmp/x");
    expect(resolveStateDir({ XDG_STATE_HOME: "/xdg" })).toBe("/xdg/conch");
    expect(resolveStateDir({})).toBe(join(homedir(), ".local", "state", "conch"));
  });
});

describe("ensureStateDir", () => {
  const tempRoot = useTempRoot();

  it("creates the state, sessions and logs dirs as 0700 even under umask 000", async () => {
    const root = tempRoot();
    await withPermissiveUmask(() => ensureStateDir(root));
    for (const dir of [root, sessionsDir(root), join(root, "logs")]) {
      expect(permissions(statSync(dir).mode)).toBe(0o700);
    }
  });

  it("puts agent stderr logs under logs/", () => {
    expect(agentLogPath("abc", "/state")).toBe("/state/logs/abc.log");
  });
});

describe("fileNameFor", () => {
  it("keeps ordinary ids readable", () => {
    expect(fileNameFor("0b9e-41f2_a.b")).toBe("0b9e-41f2_a.b");
  });

  it("cannot be steered out of the sessions folder by an agent-chosen id", () => {
    expect(fileNameFor("../../etc/passwd")).toBe("%2E.%2F..%2Fetc%2Fpasswd");
    expect(fileNameFor("..")).toBe("%2E.");
    expect(sessionLogPath("a/b", "/state")).toBe("/state/sessions/a%2Fb.jsonl");
  });

  it("does not let two ids collide", () => {
    expect(fileNameFor("a%2Fb")).not.toBe(fileNameFor("a/b"));
  });

  it("rejects an empty id with a message", () => {
    expect(() => fileNameFor("")).toThrow(/cannot be empty/);
  });
});
