// The command line and config settings of the protocol's options: --add-dir / additionalDirectories,
// remote agents by URL, and fs/* roots beyond the cwd.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { rootFor } from "../../src/acp/workspace-path.js";
import { loadConfig, UntrustedProjectError } from "../../src/agents/config-file.js";
import { resolveAgent } from "../../src/agents/presets.js";
import { parseCommandLine } from "../../src/cli/parse-args.js";
import { tempDir } from "../support/run-conch.js";

describe("--add-dir", () => {
  it("is repeatable, made absolute against the cwd, in the UI and in print mode", () => {
    expect(parseCommandLine(["--add-dir", "../lib", "--add-dir", "/abs"], "/work/app")).toMatchObject({
      kind: "interactive",
      addDirs: ["/work/lib", "/abs"],
    });
    expect(parseCommandLine(["-p", "hi", "--add-dir", "docs"], "/work/app")).toMatchObject({ kind: "print", addDirs: ["/work/app/docs"] });
  });
});

describe("additionalDirectories in the config", () => {
  function setup(user: unknown, project?: unknown) {
    const home = tempDir();
    const repo = tempDir();
    mkdirSync(path.join(repo, ".git"));
    mkdirSync(path.join(home, "conch"), { recursive: true });
    writeFileSync(path.join(home, "conch/config.json"), JSON.stringify(user));
    if (project !== undefined) writeFileSync(path.join(repo, ".conch.json"), JSON.stringify(project));
    return { env: { XDG_CONFIG_HOME: home, CONCH_STATE_DIR: path.join(home, "state") }, repo };
  }

  it("joins the user's and a trusted project's, a project's relative to its folder", () => {
    const { env, repo } = setup({ additionalDirectories: ["/shared"] }, { additionalDirectories: ["../sibling"] });
    expect(loadConfig(repo, env, { trust: true }).additionalDirectories).toEqual(["/shared", path.resolve(repo, "../sibling")]);
  });

  it("from an untrusted project needs trust: it opens more to the agent", () => {
    const { env, repo } = setup({}, { additionalDirectories: ["/etc"] });
    expect(() => loadConfig(repo, env)).toThrow(UntrustedProjectError);
    expect(() => loadConfig(repo, env)).toThrow(/additionalDirectories.*opens \/etc to the agent/);
    expect(loadConfig(repo, env, { untrusted: "leave-out" }).additionalDirectories).toEqual([]);
  });
});

describe("a remote agent by URL", () => {
  it.each([
    ["ws://127.0.0.1:8080", "ws"],
    ["wss://agents.example/acp", "ws"],
    ["http://127.0.0.1:8080/acp", "http"],
    ["https://agents.example/acp", "http"],
  ])("%s connects over %s, named by its host", (url, transport) => {
    const agent = resolveAgent(url);
    expect(agent.via).toBe("remote");
    expect(agent.remote?.transport).toBe(transport);
    expect(agent.name).toBe(new URL(url).host);
  });

  it("a command line that only mentions a URL is still a command line", () => {
    expect(resolveAgent("node my-agent.js --server ws://x:1").via).toBe("command");
  });
});

describe("fs/* roots", () => {
  it("a path in an additional directory belongs to it; a relative path and a path elsewhere to the cwd", async () => {
    const cwd = tempDir();
    const extra = tempDir();
    expect(await rootFor(cwd, [extra], path.join(extra, "a.txt"))).toBe(extra);
    expect(await rootFor(cwd, [extra], path.join(cwd, "a.txt"))).toBe(cwd);
    expect(await rootFor(cwd, [extra], "a.txt")).toBe(cwd);
    expect(await rootFor(cwd, [extra], "/etc/passwd")).toBe(cwd);
  });
});
