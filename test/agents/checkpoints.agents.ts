/**
 * Checkpoints and remembered rules against every kit agent (issue 23): `conch undo` puts back what
 * a print run changed, both an edit made by the agent's own tool (claude, codex and opencode write
 * files themselves; gemini through conch) and a file a command it ran created; and "always allow"
 * answered in the TUI (a real PTY) writes a rule, so the same call in a later `-p` run with
 * `--permissions deny` is allowed by that rule instead of refused.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONCH, KIT, conch, reportSkip, shell, sq, type AgentName } from "./support/real-agents.js";
import { describeModes, expectNoCrashes, lazyScenario } from "./support/scenario.js";

const DRIVER = path.join(__dirname, "support/tui-always-allow.mjs");
const scripts = mkdtempSync(path.join(os.tmpdir(), "conch-agent-scripts-"));

/** A kit script with one command swapped for another (everywhere it appears: the model's call, the prompt, the settings). */
function derived(script: string, from: string, to: string): string {
  const file = path.join(scripts, `${script.replace(/\//g, "-")}.json`);
  writeFileSync(
    file,
    readFileSync(path.join(KIT, "scripts", `${script}.json`), "utf8")
      .split(from)
      .join(to),
  );
  return file;
}

/** The files a kit script puts in the project before the run. */
function projectFiles(script: string): Record<string, string> {
  const s = JSON.parse(readFileSync(path.join(KIT, "scripts", `${script}.json`), "utf8"));
  const files: Record<string, unknown> = s.setup?.projectFiles ?? {};
  return Object.fromEntries(
    Object.entries(files).map(([k, v]) => [
      k.replace(/^\$\{PROJECT\}\//, ""),
      typeof v === "string" ? v : `${JSON.stringify(v, null, 2)}\n`,
    ]),
  );
}

interface EditCase {
  script: string;
  prompt: string;
  /** Files the turn changes (they exist before) and creates. */
  changed: string[];
  created: string[];
}

interface Case {
  agent: AgentName;
  edit: EditCase;
  /** A script whose command creates `created.txt`, and its prompt. */
  command: { script: string; prompt: string };
  /** A prompt whose permission request offers "always allow" (claude-next 0.100.0's offers none). */
  always?: { script: string; prompt: string };
}

const TOUCH = "touch created.txt && echo hello";
const claudeCommand = { script: derived("claude/s2-bash-permission", "echo hello", TOUCH), prompt: `Run ${TOUCH}` };
const codexCommand = { script: derived("codex/c2", "echo hello", TOUCH), prompt: `Run ${TOUCH} in the shell.` };
const claudeEdit: EditCase = {
  script: "claude/s3-edit-diff",
  prompt: "Fix hello.txt and write notes",
  changed: ["hello.txt"],
  created: ["notes.md"],
};
const codexEdit: EditCase = {
  script: "codex/c3",
  prompt: "Change 'hello world' to 'hello ACP' in greeting.txt and add NOTES.md.",
  changed: ["greeting.txt"],
  created: ["NOTES.md"],
};

const CASES: Case[] = [
  { agent: "claude", edit: claudeEdit, command: claudeCommand, always: { script: "claude/s2-bash-permission", prompt: "Run echo hello" } },
  { agent: "claude-next", edit: claudeEdit, command: claudeCommand },
  { agent: "codex", edit: codexEdit, command: codexCommand, always: { script: "codex/c2", prompt: "Run echo hello in the shell." } },
  {
    agent: "codex-next" as AgentName,
    edit: codexEdit,
    command: codexCommand,
    always: { script: "codex/c2", prompt: "Run echo hello in the shell." },
  },
  {
    agent: "gemini",
    edit: {
      script: "gemini/g3",
      prompt: "Rename the greeting to Howdy and add a test.",
      changed: ["hello.py"],
      created: ["test_hello.py"],
    },
    command: {
      script: derived("gemini/g2", "ls -1 && echo shell-ok", "touch created.txt && echo shell-ok"),
      prompt: "List the files in this project.",
    },
    always: { script: "gemini/g2", prompt: "List the files in this project." },
  },
  {
    agent: "opencode",
    edit: {
      script: "opencode/c-edit-write",
      prompt: "Change 'hello world' to 'hello ACP' in hello.txt and add NOTES.md.",
      changed: ["hello.txt"],
      created: ["NOTES.md"],
    },
    command: { script: "opencode/b-shell-permission", prompt: "Run echo hello in the shell." },
    always: { script: "opencode/b-shell-permission", prompt: "Run echo hello in the shell." },
  },
];

/** Records a project file as it is now into an extra (`missing` when there is none). */
const keep = (name: string, file: string) =>
  shell(`if [ -f ${sq(file)} ]; then cat ${sq(file)}; else echo missing; fi >"$OUT/extra-${name}"`);
const undo = shell(`node ${sq(CONCH)} undo "$SID_p1" >"$OUT/extra-undo" 2>&1; echo "exit $?" >>"$OUT/extra-undo"`);

for (const c of CASES) {
  const skip = reportSkip(c.agent);
  describe.skipIf(skip)(`${c.agent} checkpoints and rules${skip ? " (NOT INSTALLED: skipped)" : ""}`, () => {
    describeModes((mode) => {
      const before = projectFiles(c.edit.script);
      const edit = lazyScenario(
        c.agent,
        mode,
        c.edit.script,
        [
          conch("p1", c.edit.prompt, { permissions: "approve-all" }),
          ...[...c.edit.changed, ...c.edit.created].map((f, i) => keep(`before-${i}`, f)),
          undo,
        ],
        { files: [...c.edit.changed, ...c.edit.created] },
      );
      const command = lazyScenario(
        c.agent,
        mode,
        c.command.script,
        [conch("p1", c.command.prompt, { permissions: "approve-all" }), keep("before", "created.txt"), undo],
        {
          files: ["created.txt"],
        },
      );
      const always = c.always
        ? lazyScenario(c.agent, mode, c.always.script, [
            shell(`node ${sq(DRIVER)} ${sq(CONCH)} ${sq(c.always.prompt)} >"$OUT/extra-tui" 2>&1; echo "exit $?" >>"$OUT/extra-tui"`),
            shell(`cat "$CONCH_STATE_DIR/permission-rules.json" >"$OUT/extra-rules" 2>&1`),
            conch("p2", c.always.prompt, { permissions: "deny", format: "stream-json" }),
          ])
        : undefined;

      it(`conch undo puts back what the agent's own edit changed and deletes what it created (${c.edit.script})`, async () => {
        edit.start();
        command.start();
        always?.start();
        const run = await edit();
        expect(run.steps.p1?.code, run.describe("p1")).toBe(0);
        c.edit.changed.forEach((f, i) => expect(run.extras[`before-${i}`], `${f} changed by the turn`).not.toBe(before[f]));
        c.edit.created.forEach((f, i) =>
          expect(run.extras[`before-${c.edit.changed.length + i}`], `${f} created by the turn`).not.toBe("missing\n"),
        );
        expect(run.extras.undo, run.extras.undo).toMatch(/exit 0\s*$/);
        for (const f of c.edit.changed) expect(run.files[f], `${f} after undo\n${run.extras.undo}`).toBe(before[f]);
        for (const f of c.edit.created) expect(run.files[f], `${f} after undo\n${run.extras.undo}`).toBeNull();
      });

      it("conch undo deletes the file a command it ran created", async () => {
        const run = await command();
        expect(run.steps.p1?.code, run.describe("p1")).toBe(0);
        expect(run.extras.before, "created.txt before the undo").toBe("");
        expect(run.extras.undo, run.extras.undo).toMatch(/deleted created\.txt[\s\S]*exit 0\s*$/);
        expect(run.files["created.txt"]).toBeNull();
      });

      if (always)
        it("always allow in the TUI writes a rule: the same call in a later -p run is allowed by it, not refused", async () => {
          const run = await always();
          expect(run.extras.tui, run.extras.tui).toMatch(/^remembered/);
          expect(run.extras.rules, run.extras.rules).toContain('"rule": "execute(');
          const p2 = run.steps.p2;
          expect(p2?.code, run.describe("p2")).toBe(0);
          // codex keeps its own execpolicy amendment (its allow-always option) and does not ask again;
          // the others ask, and conch's remembered rule answers without a person.
          const answered = p2.events.filter((e) => e.type === "permission" && e.subtype === "answered");
          if (c.agent !== "codex" && c.agent !== ("codex-next" as AgentName))
            expect(answered.length, run.describe("p2")).toBeGreaterThan(0);
          for (const a of answered)
            expect(a).toMatchObject({
              source: "rule",
              optionKind: "allow_once",
              rule: expect.stringMatching(/remembered for this project$/),
            });
          expect(p2.result?.permissionsDenied).toEqual([]);
        });

      it("no conch run crashed", () => expectNoCrashes(c.agent, mode));
    });
  });
}
