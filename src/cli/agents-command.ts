import { EXIT } from "../errors/conch-error.js";
import { loadConfig, mcpServersFor } from "../agents/config-file.js";
import { PRESETS, resolveAgent, which, type ResolvedAgent } from "../agents/presets.js";
import { formatProbe, probeAgent, type ProbeReport } from "./agent-probe.js";
import type { Command } from "./parse-args.js";
import { registryAgents } from "./registry.js";
import { runRegistryCommand } from "./registry-command.js";

/**
 * `conch agents --probe [name]`: starts each agent (the named one, `--agent <command>`, or every
 * configured and installed one), and prints what it advertises next to what conch will use. Exits
 * 1 when a named agent could not be probed.
 */
async function runProbe(cmd: Extract<Command, { kind: "agents" }>): Promise<number> {
  const config = loadConfig(process.cwd(), process.env, { untrusted: "leave-out" });
  const servers = mcpServersFor(config);
  const spec = cmd.agent ?? cmd.name;
  const targets: ResolvedAgent[] = [];
  const skipped: string[] = [];
  if (spec) {
    try {
      targets.push(resolveAgent(spec, config.agents, undefined, registryAgents()));
    } catch (err) {
      process.stderr.write(`conch: ${(err as Error).message}\n`);
      return EXIT.failed;
    }
  } else {
    for (const name of [...Object.keys(config.agents), ...PRESETS.map((p) => p.name).filter((n) => !config.agents[n])]) {
      try {
        const agent = resolveAgent(name, config.agents);
        // An agent that is not installed would be downloaded by npx: only a named one is.
        if (agent.via === "npx") skipped.push(`${name}: not installed (name it to probe it through npx: conch agents --probe ${name})`);
        else targets.push(agent);
      } catch (err) {
        skipped.push(`${name}: ${(err as Error).message}`);
      }
    }
  }
  const reports: ProbeReport[] = [];
  for (const agent of targets) {
    if (!cmd.json)
      process.stderr.write(`probing ${agent.via === "command" ? [agent.command.command, ...agent.command.args].join(" ") : agent.name}…\n`);
    const report = await probeAgent(agent, servers);
    reports.push(report);
    if (!cmd.json) process.stdout.write(`${formatProbe(report)}\n\n`);
  }
  if (cmd.json) process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
  else for (const line of skipped) process.stdout.write(`${line}\n`);
  return spec && !reports[0]?.ok ? EXIT.failed : EXIT.ok;
}

/** `conch agents`: every preset, how it would start, and whether it is installed. */
export async function runAgentsCommand(cmd: Extract<Command, { kind: "agents" }>): Promise<number> {
  if (cmd.probe) return runProbe(cmd);
  if (cmd.registry) return runRegistryCommand(cmd);
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
    return EXIT.ok;
  }
  for (const r of rows) {
    const state = r.installed ? "installed" : r.via === "npx" ? "not installed (will run via npx)" : "not installed";
    process.stdout.write(`${r.name.padEnd(9)} ${r.title}\n          ${state}: ${r.command}\n          auth: ${r.auth}\n`);
  }
  return EXIT.ok;
}
