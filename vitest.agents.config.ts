import { defineConfig } from "vitest/config";

/**
 * `npm run test:agents`: conch's print mode against the real ACP agents of ../shared/real-agents
 * (claude, claude-next, codex, gemini, opencode), every model script twice: with instant model
 * replies and with FAKE_MODEL_LATENCY_MS=3000. Not part of `npm test`: the
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
    // A test waits for its whole scenario (up to five conch runs, each with its own --timeout, and
    // gemini's waits for the next minute); the scenario's own ceilings report a hang first.
    testTimeout: 900_000,
    hookTimeout: 900_000,
    reporters: ["verbose"],
  },
});
