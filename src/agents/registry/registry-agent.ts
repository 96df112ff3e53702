import path from "node:path";
import type { AgentCommand } from "../agent-process.js";
import { registryPlatform, type RegistryEntry } from "./registry-format.js";

/** How a registry agent would start here, or why it cannot. */
export type RegistryLaunch = { ok: true; command: AgentCommand; how: "path" | "npx" | "uvx"; what: string } | { ok: false; why: string };

type Which = (bin: string) => string | undefined;

/**
 * How the registry says to start an agent, on this machine, without downloading an executable:
 * its binary when that command is already on PATH, else its npm package through `npx -y`, else its
 * PyPI package through `uvx` (when uv is installed). A binary-only agent that is not installed is
 * an error that says where to get it: conch never fetches and runs an archive by itself.
 */
export function registryLaunch(entry: RegistryEntry, which: Which, platform = registryPlatform()): RegistryLaunch {
  const dist = entry.distribution;
  const target = dist.binary?.[platform];
  if (target) {
    const bin = path.basename(target.cmd);
    const found = which(bin);
    if (found) return { ok: true, how: "path", what: found, command: { command: found, args: target.args ?? [], env: target.env } };
  }
  if (dist.npx) {
    const p = dist.npx;
    return { ok: true, how: "npx", what: p.package, command: { command: "npx", args: ["-y", p.package, ...(p.args ?? [])], env: p.env } };
  }
  if (dist.uvx && which("uvx")) {
    const p = dist.uvx;
    return { ok: true, how: "uvx", what: p.package, command: { command: "uvx", args: [p.package, ...(p.args ?? [])], env: p.env } };
  }
  if (dist.uvx) return { ok: false, why: `${entry.name} runs through uv (\`uvx ${dist.uvx.package}\`), and uvx is not on PATH` };
  if (target)
    return {
      ok: false,
      why: `${entry.name} is distributed as a download (${target.archive}); conch does not download executables: install it so that \`${path.basename(target.cmd)}\` is on PATH`,
    };
  const platforms = Object.keys(dist.binary ?? {}).join(", ");
  return { ok: false, why: `${entry.name} has no build for ${platform}${platforms ? ` (only ${platforms})` : ""}` };
}

/** A distribution in a few words, for `conch agents --registry`: `npx @scope/pkg`, `binary codex-acp`, … */
export function describeDistribution(entry: RegistryEntry, platform = registryPlatform()): string {
  const d = entry.distribution;
  const parts: string[] = [];
  if (d.binary) parts.push(d.binary[platform] ? `binary ${path.basename(d.binary[platform].cmd)}` : "binary (not for this platform)");
  if (d.npx) parts.push(`npx ${d.npx.package}`);
  if (d.uvx) parts.push(`uvx ${d.uvx.package}`);
  return parts.join(", ");
}
