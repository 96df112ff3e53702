import { loadConfig } from "../agents/config-file.js";
import { PRESETS, resolveAgent, which } from "../agents/presets.js";
import type { Command } from "./parse-args.js";

/** `conch agents`: every preset, how it would start, and whether it is installed. */
export async function runAgentsCommand(cmd: Extract<Command, { kind: "agents" }>): Promise<number> {
  // An untrusted project's agents are not what `conch` would run here: leave them out.
  const config = loadConfig(process.cwd(), process.env, { untrusted: "leave-out" });
  const custom = Object.entries(config.agents).map(([name, a]) => ({
    name,
    title: a.title ?? "configured agent",
    installed: a.command.includes("/") ? true : which(a.command) !== undefined,
    via: "config",
    command: [a.command, ...a.args].join(" "),
    auth: "see the agent's documentation",
  }));
  const rows = PRESETS.filter((p) => !config.agents[p.name]).map((p) => {
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
  rows.unshift(...custom);
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
