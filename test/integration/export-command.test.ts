import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runConch, tempDir } from "../support/run-conch.js";

/** The id of the only session in a state dir. */
async function onlySession(stateDir: string): Promise<string> {
  const r = await runConch(["sessions", "--json", "--all"], { stateDir });
  const list = JSON.parse(r.stdout) as { id: string }[];
  expect(list).toHaveLength(1);
  return list[0].id;
}

describe("conch export", () => {
  it("prints a stored session as Markdown, found by a unique prefix", async () => {
    const stateDir = tempDir("conch-state-");
    const cwd = tempDir();
    expect((await runConch(["-p", "edit", "--agent", "demo", "--permissions", "approve-all"], { stateDir, cwd })).code).toBe(0);
    const id = await onlySession(stateDir);
    const r = await runConch(["export", id.slice(0, 12)], { stateDir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# edit\n/);
    expect(r.stdout).toContain(`- Session: \`${id}\``);
    expect(r.stdout).toContain("### › edit");
    expect(r.stdout).toContain("```diff\n--- /dev/null\n+++ b/demo-notes.md");
    expect(r.stdout).toContain("allowed once by policy");
  });

  it("writes --output into a new file, and never replaces one without --force", async () => {
    const stateDir = tempDir("conch-state-");
    const cwd = tempDir();
    await runConch(["-p", "plan", "--agent", "demo"], { stateDir, cwd });
    const id = await onlySession(stateDir);
    const first = await runConch(["export", id, "-o", "plan.md"], { stateDir, cwd });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`exported session ${id} to ${path.join(cwd, "plan.md")}`);
    expect(readFileSync(path.join(cwd, "plan.md"), "utf8")).toContain("**Plan** · 3/3 done");
    writeFileSync(path.join(cwd, "plan.md"), "my own notes");
    const again = await runConch(["export", id, "--output", "plan.md"], { stateDir, cwd });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("plan.md already exists: give another name, or add --force to replace it");
    expect(readFileSync(path.join(cwd, "plan.md"), "utf8")).toBe("my own notes");
    const forced = await runConch(["export", id, "--output", "plan.md", "--force"], { stateDir, cwd });
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain("(replacing the file that was there)");
    expect(readFileSync(path.join(cwd, "plan.md"), "utf8")).toContain("- [x] Run the tests");
  });

  it("exits 4 for a session that is not there, and 2 without an id", async () => {
    const r = await runConch(["export", "nope"]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("no session nope");
    const usage = await runConch(["export"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("export needs a session id");
  });
});
