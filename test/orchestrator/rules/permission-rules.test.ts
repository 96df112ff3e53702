import { describe, expect, it } from "vitest";
import { splitCommand } from "../../../src/orchestrator/rules/command-parts.js";
import {
  decideByRules,
  narrowestAllow,
  parseRule,
  type CallFacts,
  type PermissionRule,
  type RuleOrigin,
  type RuleVerdict,
} from "../../../src/orchestrator/rules/permission-rules.js";

const user = { layer: "user" as const, file: "/home/me/.config/conch/config.json", line: 3 };
const project = { layer: "project" as const, file: "/ws/.conch.json", line: 2 };

function rule(verdict: RuleVerdict, text: string, origin: RuleOrigin = user): PermissionRule {
  const r = parseRule(text, verdict, origin);
  if (typeof r === "string") throw new Error(r);
  return r;
}

const exec = (command: string): CallFacts => ({ kind: "execute", command, paths: [], root: "/ws", home: "/home/me" });
const edit = (...paths: [string, string][]): CallFacts => ({
  kind: "edit",
  paths: paths.map(([given, real]) => ({ given, real })),
  root: "/ws",
  home: "/home/me",
});

describe("splitting a command line", () => {
  it("splits at every operator, and marks what the shell computes", () => {
    expect(splitCommand("npm test; rm -rf ~").map((p) => p.words)).toEqual([
      ["npm", "test"],
      ["rm", "-rf", "~"],
    ]);
    expect(splitCommand("a && b || c | d & e\nf").map((p) => p.words[0])).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect(splitCommand("echo 'a; b' \"c && d\"")[0].words).toEqual(["echo", "a; b", "c && d"]);
    expect(splitCommand("npm test > out.txt")[0].dynamic).toMatch(/redirect/);
    expect(splitCommand("npm test $(rm -rf ~)").map((p) => [p.words.join(" "), !!p.dynamic, !!p.nested])).toEqual([
      ["rm -rf ~", false, true],
      ["npm test $(rm -rf ~)", true, false],
    ]);
    expect(splitCommand("npm test `rm -rf ~`").some((p) => p.nested && p.words[0] === "rm")).toBe(true);
  });
});

describe("permission rules", () => {
  it("a command that matches an allow prefix but chains another is asked, and a deny on the chained part denies", () => {
    const rules = [rule("allow", "execute(npm test *)")];
    expect(decideByRules(rules, exec("npm test"))?.verdict).toBe("allow");
    expect(decideByRules(rules, exec("npm test --watch=false"))?.verdict).toBe("allow");
    for (const hostile of [
      "npm test; rm -rf ~",
      "npm test && rm -rf ~",
      "npm test || rm -rf ~",
      "npm test | sh",
      "npm test\nrm -rf ~",
      "npm test $(rm -rf ~)",
      "npm test `rm -rf ~`",
      "npm test > ~/.bashrc",
      "npm test $HOME",
    ]) {
      expect(decideByRules(rules, exec(hostile)), hostile).toBeUndefined();
    }
    const withDeny = [...rules, rule("deny", "execute(rm *)")];
    expect(decideByRules(withDeny, exec("npm test; rm -rf ~"))?.verdict).toBe("deny");
    expect(decideByRules(withDeny, exec("npm test $(rm -rf ~)"))?.verdict).toBe("deny");
    expect(decideByRules(withDeny, exec("sudo rm -rf /"))?.verdict).toBe("deny");
    expect(decideByRules(withDeny, exec("bash -c 'echo hi; rm -rf /'"))?.verdict).toBe("deny");
  });

  it("a compound command is allowed only when every part is", () => {
    const rules = [rule("allow", "execute(npm test)"), rule("allow", "execute(npm run lint *)")];
    const d = decideByRules(rules, exec("npm test && npm run lint --fix"));
    expect(d?.verdict).toBe("allow");
    expect(d?.rules.map((r) => r.text)).toEqual(["execute(npm test)", "execute(npm run lint *)"]);
    expect(decideByRules(rules, exec("npm test && npm publish"))).toBeUndefined();
    // Without a trailing *, the command is matched exactly.
    expect(decideByRules(rules, exec("npm test --bail"))).toBeUndefined();
  });

  it("deny wins over allow, and ask over allow, whatever layer each is in", () => {
    const rules = [
      rule("allow", "execute(git *)", project),
      rule("ask", "execute(git push *)"),
      rule("deny", "execute(git push --force *)"),
    ];
    expect(decideByRules(rules, exec("git status"))?.verdict).toBe("allow");
    expect(decideByRules(rules, exec("git push origin main"))?.verdict).toBe("ask");
    expect(decideByRules(rules, exec("git push --force origin"))?.verdict).toBe("deny");
  });

  it("a project rule that tries to loosen the user's deny does not", () => {
    const rules = [rule("deny", "execute(rm *)"), rule("allow", "execute(rm -rf build)", project), rule("allow", "execute", project)];
    const d = decideByRules(rules, exec("rm -rf build"));
    expect(d?.verdict).toBe("deny");
    expect(d?.rules[0].origin.layer).toBe("user");
  });

  it("a path rule judges a symlink by where it points", () => {
    const rules = [rule("allow", "edit(src/**)"), rule("deny", "edit(.env)")];
    expect(decideByRules(rules, edit(["/ws/src/a.ts", "/ws/src/a.ts"]))?.verdict).toBe("allow");
    // src/evil is a link to /etc/passwd: the real path is outside the workspace, so no allow rule covers it.
    expect(decideByRules(rules, edit(["/ws/src/evil", "/etc/passwd"]))).toBeUndefined();
    // A link anywhere that leads to .env is denied.
    expect(decideByRules(rules, edit(["/ws/src/innocent", "/ws/.env"]))?.verdict).toBe("deny");
    // Every path must be allowed.
    expect(decideByRules(rules, edit(["/ws/src/a.ts", "/ws/src/a.ts"], ["/ws/b.ts", "/ws/b.ts"]))).toBeUndefined();
    // A folder pattern covers what is under it; ~ is the home folder.
    expect(decideByRules([rule("allow", "edit(docs)")], edit(["/ws/docs/x/y.md", "/ws/docs/x/y.md"]))?.verdict).toBe("allow");
    expect(decideByRules([rule("deny", "edit(~/.ssh)")], edit(["/home/me/.ssh/id", "/home/me/.ssh/id"]))?.verdict).toBe("deny");
    // A call that names no path is not allowed by a path rule.
    expect(decideByRules(rules, edit())).toBeUndefined();
  });

  it("a rule that does not parse is an error, never a rule", () => {
    expect(parseRule("execute npm test", "allow", user)).toMatch(/not a rule/);
    expect(parseRule("bash(npm test)", "allow", user)).toMatch(/not a tool kind/);
    expect(parseRule("execute()", "allow", user)).toMatch(/nothing in its parentheses/);
  });

  it("always allow remembers the narrowest rule, and it matches the same call again and no other", () => {
    for (const command of ["npm test", "touch created.txt && echo hello && echo shell-ok", "rm *", "npm test > out.txt", "echo (hi)"]) {
      const texts = narrowestAllow(exec(command));
      if (typeof texts === "string") throw new Error(texts);
      const rules = texts.map((t) => rule("allow", t));
      expect(decideByRules(rules, exec(command))?.verdict, command).toBe("allow");
      expect(decideByRules(rules, exec(`${command}; rm -rf ~`)), command).toBeUndefined();
    }
    expect(narrowestAllow(exec("rm *"))).toEqual(["execute(rm '*')"]);
    expect(decideByRules([rule("allow", "execute(rm '*')")], exec("rm important.txt"))).toBeUndefined();
    const texts = narrowestAllow(edit(["/ws/hello.txt", "/ws/hello.txt"], ["/elsewhere/a*.txt", "/elsewhere/a*.txt"]));
    expect(texts).toEqual(["edit(hello.txt)", "edit(/elsewhere/a\\*.txt)"]);
    const rules = (texts as string[]).map((t) => rule("allow", t));
    expect(decideByRules(rules, edit(["/ws/hello.txt", "/ws/hello.txt"]))?.verdict).toBe("allow");
    expect(decideByRules(rules, edit(["/elsewhere/ab.txt", "/elsewhere/ab.txt"]))).toBeUndefined();
    expect(narrowestAllow({ kind: "edit", paths: [], root: "/ws", home: "/h" })).toMatch(/which files/);
    expect(narrowestAllow({ kind: "fetch", paths: [], root: "/ws", home: "/h" })).toEqual(["fetch"]);
  });
});
