import { afterAll, beforeAll } from "vitest";
import { tempDir } from "./run-conch.js";

/**
 * For a test file that runs the demo agent in this process: a state folder, demo state and config
 * folder of its own and no demo delay, set before its tests; the environment is put back after them.
 * `stateDir` is the state folder, once the tests run.
 */
export function useDemoEnv(): { readonly stateDir: string } {
  const saved = { ...process.env };
  const env = { stateDir: "" };
  beforeAll(() => {
    env.stateDir = tempDir("conch-state-");
    process.env.CONCH_STATE_DIR = env.stateDir;
    process.env.CONCH_DEMO_STATE = tempDir("conch-demo-");
    process.env.CONCH_DEMO_DELAY_MS = "0";
    process.env.XDG_CONFIG_HOME = tempDir("conch-config-");
  });
  afterAll(() => {
    process.env = saved;
  });
  return env;
}
