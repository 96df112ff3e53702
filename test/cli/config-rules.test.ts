import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, UntrustedProjectError } from "../../src/agents/config-file.js";
import { parseRuleEntries } from "../../src/orchestrator/rules/rule-book.js";
import { tempDir } from "../support/run-conch.js";

function setup(user: string, project?: string) {
  const home = tempDir();
  const repo = tempDir();
  mkdirSync(path.join(repo, ".git"));
  mkdirSync(path.join(home, "conch"), { recursive: true });
  writeFileSync(path.join(home, "conch/config.json"), user);
  if (project !== undefined) writeFileSync(path.join(repo, ".conch.json"), project);
  return {
    env: { XDG_CONFIG_HOME: home, CONCH_STATE_DIR: path.join(home, "state") },
    cwd: repo,
    userFile: path.join(home, "conch/config.json"),
  };
}

describe("permission rules in the config files", () => {
  it("each rule knows its file and line, and a rule that does not parse stops conch naming them", () => {
    const { env, cwd, userFile } = setup(`{
  "rules": {
    "allow": ["execute(npm test)",
              "execute npm run build"],
    "deny": ["execute(rm *)"]
  }
}`);
    const config = loadConfig(cwd, env);
    expect(config.ruleEntries?.map((e) => [e.verdict, e.text, e.line])).toEqual([
      ["deny", "execute(rm *)", 5],
      ["allow", "execute(npm test)", 3],
      ["allow", "execute npm run build", 4],
    ]);
    expect(() => parseRuleEntries(config.ruleEntries!)).toThrow(`${userFile}:4: rules.allow: "execute npm run build" is not a rule`);
  });

  it("a rules file that is not JSON names the line", () => {
    const { env, cwd } = setup(`{
  "rules": {
    "allow": ["execute(npm test)",]
  }
}`);
    expect(() => loadConfig(cwd, env)).toThrow(/not valid JSON: line 3, column \d+/);
  });

  it("a wrong shape names the line too", () => {
    const { env, cwd } = setup(`{
  "rules": {
    "alow": ["execute(npm test)"]
  }
}`);
    expect(() => loadConfig(cwd, env)).toThrow(/line 2: rules: Unrecognized key/);
  });

  it("an untrusted project's allow rules wait for trust; its deny and ask rules apply", () => {
    const { env, cwd } = setup(`{}`, JSON.stringify({ rules: { allow: ["execute"], deny: ["execute(curl *)"] } }));
    expect(() => loadConfig(cwd, env)).toThrow(UntrustedProjectError);
    const safe = loadConfig(cwd, env, { untrusted: "leave-out" });
    expect(safe.ruleEntries?.map((e) => `${e.layer} ${e.verdict} ${e.text}`)).toEqual(["project deny execute(curl *)"]);
    const trusted = loadConfig(cwd, env, { trust: true });
    expect(trusted.ruleEntries?.map((e) => `${e.layer} ${e.verdict} ${e.text}`)).toEqual([
      "project deny execute(curl *)",
      "project allow execute",
    ]);
  });
});
