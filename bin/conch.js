#!/usr/bin/env node
import module from "node:module";

// React's development build is several times slower; a user's terminal never wants it.
if (process.env.NODE_ENV === undefined) {
  process.env.NODE_ENV = "production";
  // Agents are started with the user's own environment, not this default.
  process.env.CONCH_DEFAULTED_NODE_ENV = "1";
}
// Node >= 22.1 keeps V8's compiled code of the bundle between runs (in the OS temp dir): later
// starts skip most of the parsing, about a third of loading conch. Node 20 has no such cache.
module.enableCompileCache?.();
// The bundle (scripts/bundle.mjs): a few large files load much faster than hundreds of small modules.
const { main } = await import("../dist/bundle/conch.js");

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`conch: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
