import { describe, expect, it } from "vitest";
import { parseReplayArgs } from "../../src/demo/trace-replay/cli-args.js";
import { replayMainPath, spawnReplayAgentCommand } from "../../src/demo/trace-replay/spawn.js";

describe("parseReplayArgs", () => {
  it("has defaults: process 1, speed 1", () => {
    expect(parseReplayArgs(["t.jsonl"])).toEqual({ tracePath: "t.jsonl", process: 1, speed: 1 });
  });

  it("reads every option, in either --flag value or --flag=value form", () => {
    expect(parseReplayArgs(["--process", "2", "t.jsonl", "--speed=inf", "--project", "/p", "--home=/h", "--tmpdir", "/t"])).toEqual({
      tracePath: "t.jsonl",
      process: 2,
      speed: Number.POSITIVE_INFINITY,
      project: "/p",
      home: "/h",
      tmpdir: "/t",
    });
    expect(parseReplayArgs(["t.jsonl", "--speed", "2.5"]).speed).toBe(2.5);
  });

  it("reads --causal as a switch; strict stays the default", () => {
    expect(parseReplayArgs(["t.jsonl"]).causal).toBeUndefined();
    expect(parseReplayArgs(["--causal", "t.jsonl", "--speed", "10"])).toEqual({
      tracePath: "t.jsonl",
      process: 1,
      speed: 10,
      causal: true,
    });
    expect(() => parseReplayArgs(["t.jsonl", "--causal=yes"])).toThrow(/takes no value/);
  });

  it("rejects bad input", () => {
    expect(() => parseReplayArgs([])).toThrow(/missing trace/);
    expect(() => parseReplayArgs(["a", "b"])).toThrow(/unexpected argument b/);
    expect(() => parseReplayArgs(["a", "--process", "0"])).toThrow(/positive integer/);
    expect(() => parseReplayArgs(["a", "--speed", "0"])).toThrow(/positive number/);
    expect(() => parseReplayArgs(["a", "--speed"])).toThrow(/needs a value/);
    expect(() => parseReplayArgs(["a", "--fast", "1"])).toThrow(/unknown option --fast/);
  });
});

describe("spawnReplayAgentCommand", () => {
  it("points at the built entry in dist/, even when loaded from src/", () => {
    expect(replayMainPath()).toMatch(/[/\\]dist[/\\]demo[/\\]trace-replay[/\\]main\.js$/);
  });

  it("builds node + args", () => {
    const opts = { process: 2, speed: Number.POSITIVE_INFINITY, project: "/p", mainPath: "/m.js" };
    expect(spawnReplayAgentCommand("/tr/c5.jsonl", opts)).toEqual({
      command: process.execPath,
      args: ["/m.js", "/tr/c5.jsonl", "--process", "2", "--speed", "inf", "--project", "/p"],
    });
    const more = { speed: 10, home: "/h", tmpdir: "/t", mainPath: "/m.js", nodePath: "node" };
    expect(spawnReplayAgentCommand("/t.jsonl", more)).toEqual({
      command: "node",
      args: ["/m.js", "/t.jsonl", "--speed", "10", "--home", "/h", "--tmpdir", "/t"],
    });
    expect(spawnReplayAgentCommand("/t.jsonl", { causal: true, mainPath: "/m.js" }).args).toEqual(["/m.js", "/t.jsonl", "--causal"]);
  });
});
