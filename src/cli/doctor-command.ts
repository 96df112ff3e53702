import { EXIT } from "../errors/conch-error.js";
import { safeLine } from "../text/terminal-safe.js";
import { accessSync, constants } from "node:fs";
import { startAgentLink } from "../orchestrator/agent/connect-agent.js";
import { loadConfig, projectTrust, userConfigPath } from "../agents/config-file.js";
import { trustStorePath } from "../agents/workspace-trust.js";
import { PRESETS, resolveAgent, type ResolvedAgent } from "../agents/presets.js";
import { ensureStateDir } from "../store/state-dir.js";
import type { Command } from "./parse-args.js";
import { registryAgents } from "./registry.js";
import { ptyModule } from "../terminals/pty-module.js";

/** One line of the doctor's report. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** A failed optional check is a warning, not a failure. */
  optional?: boolean;
}

async function checkNodePty(): Promise<Check> {
  try {
    const { name, module: pty } = ptyModule();
    const term = pty.spawn(process.execPath, ["-e", "process.stdout.write('ok')"], { cols: 20, rows: 2 });
    const out = await new Promise<string>((resolve) => {
      let buf = "";
      term.onData((d) => (buf += d));
      term.onExit(() => resolve(buf));
    });
    return {
      name: "node-pty",
      ok: out.includes("ok"),
      detail: out.includes("ok") ? `spawns a PTY (${name})` : `unexpected output ${JSON.stringify(out)}`,
    };
  } catch (err) {
    return { name: "node-pty", ok: false, detail: `cannot load: ${(err as Error).message}` };
  }
}

function checkTerminal(): Check {
  const tty = process.stdout.isTTY;
  const colors = process.env.NO_COLOR ? "off (NO_COLOR)" : tty ? `${process.stdout.getColorDepth?.() ?? 1}-bit` : "n/a";
  return {
    name: "terminal",
    ok: !!tty,
    optional: true,
    detail: tty
      ? `${process.stdout.columns}x${process.stdout.rows}, colours ${colors}, TERM=${process.env.TERM ?? "(unset)"}`
      : "stdout is not a terminal (fine for -p)",
  };
}

function checkStateDir(): Check {
  try {
    const dir = ensureStateDir();
    accessSync(dir, constants.W_OK);
    return { name: "state dir", ok: true, detail: dir };
  } catch (err) {
    return { name: "state dir", ok: false, detail: (err as Error).message };
  }
}

async function checkAgent(agent: ResolvedAgent, required: boolean): Promise<Check> {
  const t0 = Date.now();
  try {
    const link = await startAgentLink(
      { agent, cwd: process.cwd(), terminals: true },
      {
        onUpdate: () => undefined,
        onPermission: async () => ({ outcome: { outcome: "cancelled" } }),
        onNotice: () => undefined,
        root: () => process.cwd(),
      },
    );
    const ms = Date.now() - t0;
    const info = link.init.agentInfo;
    const caps = link.init.agentCapabilities ?? {};
    const auth = (link.init.authMethods ?? []).map((m) => m.id).join(", ") || "none";
    const capList = [
      caps.loadSession && "load",
      caps.sessionCapabilities?.list && "list",
      (caps.sessionCapabilities as { resume?: unknown } | undefined)?.resume && "resume",
      caps.sessionCapabilities?.close && "close",
      (caps.sessionCapabilities as { fork?: unknown } | undefined)?.fork && "fork",
      caps.sessionCapabilities?.additionalDirectories && "additional-dirs",
      caps.auth?.logout && "logout",
      caps.promptCapabilities?.image && "image",
      caps.mcpCapabilities?.http && "mcp-http",
    ].filter(Boolean);
    await link.stop();
    return {
      name: `agent ${agent.name}`,
      ok: true,
      detail: `${safeLine(info?.name ?? "?")} ${safeLine(info?.version ?? "")} in ${ms} ms; capabilities: ${capList.join(", ") || "basic"}; auth methods: ${auth}`,
    };
  } catch (err) {
    return { name: `agent ${agent.name}`, ok: false, optional: !required, detail: (err as Error).message.split("\n")[0] };
  }
}

/** Whether this folder's `.conch.json` applies: trusted (and how), or which of its settings wait for trust. */
function checkTrust(): Check | undefined {
  const found = projectTrust(process.cwd());
  if (!found) return undefined;
  const { project, trust } = found;
  const where = safeLine(project.file);
  if (!project.unsafe.length) return { name: "workspace trust", ok: true, detail: `${where}: only safe settings, applies untrusted` };
  const keys = project.unsafe.map((s) => safeLine(s.key)).join(", ");
  if (trust)
    return {
      name: "workspace trust",
      ok: true,
      detail: `${where}: trusted (${trust === "config" ? "trustedFolders in your config" : trustStorePath()}); sets ${keys}`,
    };
  const state = project.changed ? "changed since you trusted it" : "not trusted";
  return {
    name: "workspace trust",
    ok: false,
    optional: true,
    detail: `${where}: ${state}, so ${keys} do not apply (run conch here to decide, or pass --trust)`,
  };
}

/** `conch doctor`: checks what a user needs and exits non-zero when something required is broken. */
export async function runDoctor(cmd: Extract<Command, { kind: "doctor" }>): Promise<number> {
  const checks: Check[] = [];
  const major = Number(process.versions.node.split(".")[0]);
  checks.push({ name: "node", ok: major >= 20, detail: `v${process.versions.node}${major >= 20 ? "" : " (conch needs >= 20)"}` });
  checks.push(await checkNodePty());
  checks.push(checkTerminal());
  checks.push(checkStateDir());
  let agents = {};
  try {
    // The doctor starts agents: an untrusted project's are left out, as `conch` would.
    const config = loadConfig(process.cwd(), process.env, { untrusted: "leave-out" });
    agents = config.agents;
    checks.push({
      name: "config",
      ok: true,
      detail: `${userConfigPath()}${Object.keys(agents).length ? `; agents: ${Object.keys(agents).join(", ")}` : ""}`,
    });
    const trust = checkTrust();
    if (trust) checks.push(trust);
  } catch (err) {
    checks.push({ name: "config", ok: false, detail: (err as Error).message });
  }
  const names = cmd.agent ? [cmd.agent] : [...Object.keys(agents), ...PRESETS.map((p) => p.name).filter((n) => !(n in agents))];
  for (const name of names) {
    let agent: ResolvedAgent;
    try {
      agent = resolveAgent(name, agents, undefined, registryAgents());
    } catch (err) {
      checks.push({ name: `agent ${name}`, ok: false, optional: !cmd.agent, detail: (err as Error).message });
      continue;
    }
    if (!cmd.agent && agent.via === "npx") {
      checks.push({
        name: `agent ${name}`,
        ok: false,
        optional: true,
        detail: `not installed (would run ${agent.command.args.join(" ")} via npx)`,
      });
      continue;
    }
    checks.push(await checkAgent(agent, !!cmd.agent));
  }
  if (cmd.json) process.stdout.write(`${JSON.stringify(checks, null, 2)}\n`);
  else for (const c of checks) process.stdout.write(`${c.ok ? "ok  " : c.optional ? "--  " : "FAIL"} ${c.name.padEnd(16)} ${c.detail}\n`);
  return checks.some((c) => !c.ok && !c.optional) ? EXIT.failed : EXIT.ok;
}
