import { PRESETS, resolveAgent } from "../agents/presets.js";
import type { Command } from "./parse-args.js";

/** `conch agents`: every preset, how it would start, and whether it is installed. */
export async function runAgentsCommand(cmd: Extract<Command, { kind: "agents" }>): Promise<number> {
  const rows = PRESETS.map((p) => {
    let command = "";
    let via = "missing";
    try {
      const r = resolveAgent(p.name);
      command = [r.command.command, ...r.command.args].join(" ");
      via = r.via;
    } catch (err) {
      command = (err as Error).message;
    }
    return { name: p.name, title: p.title, installed: via === "builtin" || via === "path", via, command, auth: p.auth };
  });
  if (cmd.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  for (const r of rows) {
    const state = r.installed ? "installed" : r.via === "npx" ? "not installed (will run via npx)" : "not installed";
    process.stdout.write(`${r.name.padEnd(9)} ${r.title}\n          ${state}: ${r.command}\n          auth: ${r.auth}\n`);
  }
  return 0;
}
