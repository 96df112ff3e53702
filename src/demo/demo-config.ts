import { homedir } from "node:os";
import { join } from "node:path";

/** Knobs the demo agent reads from its environment, so tests and benchmarks can run it fast. */
export interface DemoConfig {
  /** Pause between streamed chunks; 0 makes every scenario (except `slow`) run as fast as the wire allows. */
  delayMs: number;
  /** How long the `background` job keeps running after its turn has answered. */
  backgroundMs: number;
  /** Folder holding one JSON file per saved session. */
  stateDir: string;
  /** Chunks `flood` sends when the prompt names no count. */
  floodChunks: number;
  /**
   * How long `session/load` takes before it replays (`CONCH_DEMO_LOAD_MS`, default 0): a slow load a
   * client can give up on with `$/cancel_request`.
   */
  loadMs: number;
  /** Demand a login before any session opens (`CONCH_DEMO_AUTH=1`), to show conch's auth flow. */
  requireAuth: boolean;
  /**
   * Report running/idle and background work as ACP v2's `state_update` (draft), the best turn
   * signal there is. On unless `CONCH_DEMO_STATE_UPDATES=0`, which shows an agent with no signal.
   */
  stateUpdates?: boolean;
}

const DEFAULT_DELAY_MS = 15;
const DEFAULT_BACKGROUND_MS = 2000;
const DEFAULT_FLOOD_CHUNKS = 10_000;

/** Reads the demo agent's settings from `CONCH_DEMO_*` variables (and XDG_STATE_HOME for the state folder). */
export function readDemoConfig(env: NodeJS.ProcessEnv = process.env): DemoConfig {
  return {
    delayMs: readCount(env.CONCH_DEMO_DELAY_MS, DEFAULT_DELAY_MS),
    backgroundMs: readCount(env.CONCH_DEMO_BACKGROUND_MS, DEFAULT_BACKGROUND_MS),
    stateDir: env.CONCH_DEMO_STATE || join(env.XDG_STATE_HOME || join(homedir(), ".local", "state"), "conch-demo"),
    floodChunks: readCount(env.CONCH_DEMO_FLOOD_CHUNKS, DEFAULT_FLOOD_CHUNKS),
    loadMs: readCount(env.CONCH_DEMO_LOAD_MS, 0),
    requireAuth: env.CONCH_DEMO_AUTH === "1",
    stateUpdates: env.CONCH_DEMO_STATE_UPDATES !== "0",
  };
}

function readCount(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
}
