import { describe, expect, it } from "vitest";
import { findExecutable, planCommand } from "../../src/terminals/command-line.js";

describe("planCommand", () => {
  it("spawns an argv directly", () => {
    expect(planCommand("git", ["log", "--oneline"])).toEqual({ file: "git", args: ["log", "--oneline"], viaShell: false });
    expect(planCommand("ls", undefined)).toEqual({ file: "ls", args: [], viaShell: false });
  });

  it("runs a whole command line without args through /bin/sh -c", () => {
    expect(planCommand("npm test -- --watch=false", [])).toEqual({
      file: "/bin/sh",
      args: ["-c", "npm test -- --watch=false"],
      viaShell: true,
    });
  });

  it("keeps a program path with spaces as a program when args are given", () => {
    expect(planCommand("/opt/My Tools/run", ["x"])).toEqual({ file: "/opt/My Tools/run", args: ["x"], viaShell: false });
  });
});

describe("findExecutable", () => {
  it("searches PATH for a bare name and resolves a path against cwd", () => {
    expect(findExecutable("sh", process.env.PATH, "/")).toMatch(/\/sh$/);
    expect(findExecutable("./bin/sh", undefined, "/")).toBe("/bin/sh");
    expect(findExecutable("conch-no-such-program-xyz", process.env.PATH, "/")).toBeNull();
    expect(findExecutable("/etc/passwd", undefined, "/")).toBeNull(); // not executable
    expect(findExecutable("/etc", undefined, "/")).toBeNull(); // a directory
  });
});
