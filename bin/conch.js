#!/usr/bin/env node
// React's development build is several times slower; a user's terminal never wants it.
if (process.env.NODE_ENV === undefined) {
  process.env.NODE_ENV = "production";
  // Agents are started with the user's own environment, not this default.
  process.env.CONCH_DEFAULTED_NODE_ENV = "1";
}
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
