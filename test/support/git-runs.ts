import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "./run-conch.js";

/** What was run: each git command's subcommand (its first word after the `-c` settings), in order. */
export interface GitRuns {
  /** The subcommands run so far. */
  list(): string[];
  /** Runs `make` with a `git` on PATH that records each run; what it constructs keeps that PATH. */
  around<T>(make: () => T): T;
}

/** A `git` wrapper that logs each run and then runs the real git: counts what the checkpoints cost. */
export function gitRuns(): GitRuns {
  const dir = tempDir("conch-git-runs-");
  const log = path.join(dir, "runs.log");
  const real = execFileSync("sh", ["-c", "command -v git"]).toString().trim();
  writeFileSync(path.join(dir, "git"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(path.join(dir, "git"), 0o755);
  return {
    list: () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((line) => line.replace(/^(-c \S+ )*/, "").split(" ")[0])
        : [],
    around(make) {
      const saved = process.env.PATH;
      process.env.PATH = `${dir}${path.delimiter}${saved ?? ""}`;
      try {
        return make();
      } finally {
        process.env.PATH = saved;
      }
    },
  };
}
