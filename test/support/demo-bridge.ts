import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { ROOT } from "./run-conch.js";

/** The demo agent behind a local WebSocket / streamable-HTTP bridge (dist/demo/serve.js). */
export interface DemoBridge {
  ws: string;
  http: string;
  port: number;
  proc: ChildProcess;
  /** Kills the bridge at once, dropping every connection (its demo agents end with them). */
  kill(): Promise<void>;
}

/** Starts the bridge on `port` (0: any free one) with the demo's environment; resolves once it listens. */
export async function startDemoBridge(env: Record<string, string>, port = 0): Promise<DemoBridge> {
  const proc = spawn(process.execPath, [path.join(ROOT, "dist/demo/serve.js"), "--port", String(port)], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: proc.stdout! });
  const urls: string[] = [];
  await new Promise<void>((resolve, reject) => {
    proc.once("exit", (code) => reject(new Error(`the demo bridge exited with code ${code}`)));
    lines.on("line", (line) => {
      urls.push(line.trim());
      if (urls.length === 2) resolve();
    });
  });
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  return {
    ws: urls[0],
    http: urls[1],
    port: Number(new URL(urls[0]).port),
    proc,
    kill: async () => {
      proc.kill("SIGKILL");
      await exited;
    },
  };
}
