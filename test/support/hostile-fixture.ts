import path from "node:path";
import { afterEach } from "vitest";
import { ROOT } from "./run-conch.js";
import { killMarked, newMarker } from "./marked-processes.js";

/** The agent that misbehaves on purpose, one way per flag (test/fixtures/hostile-agent.mjs). */
export const HOSTILE = path.join(ROOT, "test/fixtures/hostile-agent.mjs");

/** The `--agent` command line of the hostile agent with `flags`; `marker` lands in its argv (and its children's). */
export const hostile = (marker: string, flags: string) => `${process.execPath} ${HOSTILE} ${flags} --marker ${marker}`;

/**
 * For a test file whose tests start processes: a new marker per call, to put in their argv, and
 * whatever carries one when its test ends (a failing test's leftovers) is killed then.
 */
export function markersKilledAfterEach(): () => string {
  const markers: string[] = [];
  afterEach(() => {
    for (const m of markers.splice(0)) killMarked(m);
  });
  return () => {
    const m = newMarker();
    markers.push(m);
    return m;
  };
}
