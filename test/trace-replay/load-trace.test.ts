import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  escapeProjectPath,
  loadTrace,
  parseTrace,
  processCount,
  selectProcess,
  substituteInString,
  substitutePlaceholders,
} from "../../src/demo/trace-replay/load-trace.js";
import { TRACES_DIR } from "./recorded-client.js";

const values = { project: "/a/b.c", home: "/home/u", tmpdir: "/tmp/x" };

function lines(...objects: unknown[]): string {
  return objects.map((o) => JSON.stringify(o)).join("\n") + "\n";
}

describe("parseTrace", () => {
  it("reads messages and notes, skipping blank lines", () => {
    const trace = parseTrace(
      lines(
        { t: 0, dir: "note", text: "agent process 1 started" },
        { t: 5, dir: "client", msg: { jsonrpc: "2.0", id: 0, method: "initialize", params: {} } },
      ) + "\n\n",
      "mem",
    );
    expect(trace.entries).toEqual([
      { t: 0, dir: "note", text: "agent process 1 started" },
      { t: 5, dir: "client", msg: { jsonrpc: "2.0", id: 0, method: "initialize", params: {} } },
    ]);
  });

  it("names the file and line of a bad line", () => {
    expect(() => parseTrace('{"t":0,"dir":"note","text":"x"}\n{nope', "f.jsonl")).toThrow(/^f\.jsonl:2: not JSON/);
    expect(() => parseTrace('{"t":0,"dir":"agent"}', "f.jsonl")).toThrow(/^f\.jsonl:1: expected/);
  });
});

describe("selectProcess", () => {
  it("splits multi-process traces at the start notes", async () => {
    const trace = await loadTrace(join(TRACES_DIR, "claude-agent-acp-0.23.1/s6-load-session.jsonl"));
    expect(processCount(trace)).toBe(3);
    const methods = [1, 2, 3].map((n) =>
      selectProcess(trace, n).entries.flatMap((e) => (e.dir === "client" && typeof e.msg.method === "string" ? [e.msg.method] : [])),
    );
    expect(methods[0]).toEqual(["initialize", "session/new", "session/prompt"]);
    expect(methods[1]).toEqual(["initialize", "session/load", "session/prompt"]);
    expect(methods[2]).toEqual(["initialize", "session/resume", "session/prompt"]);
    expect(selectProcess(trace, 2).startT).toBe(4230);
    expect(() => selectProcess(trace, 4)).toThrow(/no agent process 4/);
  });

  it("reads the EOF behaviour from each process's exit note", async () => {
    const c5 = await loadTrace(join(TRACES_DIR, "codex-acp-0.16.0/c5.jsonl"));
    expect([1, 2].map((n) => selectProcess(c5, n).eofPolicy)).toEqual(["ignore", "ignore"]);
    const g5 = await loadTrace(join(TRACES_DIR, "gemini-cli-0.61.0/g5.jsonl"));
    expect([1, 2].map((n) => selectProcess(g5, n).eofPolicy)).toEqual(["exit", "exit"]);
  });

  it("treats a trace without start notes as one process that exits on EOF", () => {
    const trace = parseTrace(lines({ t: 3, dir: "agent", msg: { jsonrpc: "2.0", method: "x" } }));
    expect(processCount(trace)).toBe(1);
    expect(selectProcess(trace, 1)).toMatchObject({ process: 1, startT: 0, eofPolicy: "exit" });
  });
});

describe("placeholders", () => {
  it("escapes the project path the way Claude Code names directories", () => {
    expect(escapeProjectPath("/a/b.c")).toBe("-a-b-c");
  });

  it("replaces all four placeholders in one pass", () => {
    expect(substituteInString("${TMPDIR}/claude-0/${PROJECT_ESCAPED}/x in ${PROJECT} of ${HOME}", values)).toBe(
      "/tmp/x/claude-0/-a-b-c/x in /a/b.c of /home/u",
    );
    // A value that looks like a placeholder is not expanded again.
    expect(substituteInString("${PROJECT}", { ...values, project: "${HOME}" })).toBe("${HOME}");
  });

  it("substitutes inside parsed JSON, keys included, keeping field order and JSON validity", () => {
    const msg = { b: "${PROJECT}/f", a: ["${HOME}", 1, null, { "${PROJECT}": true }] };
    const out = substitutePlaceholders(msg, { ...values, project: '/q"uote\\d' });
    const want = { b: '/q"uote\\d/f', a: ["/home/u", 1, null, { '/q"uote\\d': true }] };
    expect(JSON.stringify(out)).toBe(JSON.stringify(want));
    expect(Object.keys(out)).toEqual(["b", "a"]);
  });
});
