import { defineConfig } from "vitest/config";

/**
 * `npm run test:agents`: conch's print mode against the real ACP agents of ../shared/real-agents
 * (claude, claude-next, codex, gemini), one test per model script. Not part of `npm test`: the
 * files are named *.agents.ts, which the default config does not include. Needs `npm run build`
 * first (it runs bin/conch.js, i.e. dist/) and the agents installed by ../shared/real-agents/setup.
 */
export default defineConfig({
  test: {
    include: ["test/agents/**/*.agents.ts"],
    pool: "forks",
    // One agent at a time: the real agents are CPU-heavy and the machine may have 2 cores.
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 300_000,
    reporters: ["verbose"],
  },
});
