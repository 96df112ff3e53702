import { registryLaunch, describeDistribution } from "../agents/registry/registry-agent.js";
import { registryPlatform } from "../agents/registry/registry-format.js";
import { refreshRegistry, registryAge, type LoadedRegistry } from "../agents/registry/registry-store.js";
import { PRESETS, which } from "../agents/presets.js";
import { EXIT } from "../errors/conch-error.js";
import { registryCachePath } from "../store/state-dir.js";
import { safeLine } from "../text/terminal-safe.js";
import type { Command } from "./parse-args.js";
import { currentRegistry } from "./registry.js";

/** One registry agent as `conch agents --registry` lists it. */
export interface RegistryRow {
  id: string;
  name: string;
  version: string;
  distribution: string;
  /** How `--agent <id>` would start it here, or why it cannot. */
  starts: string;
  runnable: boolean;
  /** A preset of the same name wins over the registry entry. */
  shadowedByPreset: boolean;
}

/** Where a copy of the registry came from, in words. */
function originText(reg: LoadedRegistry): string {
  if (reg.origin === "file") return `the file $CONCH_REGISTRY names, ${reg.source}`;
  if (reg.origin === "refreshed") return `fetched from ${reg.source}`;
  return `the snapshot shipped with conch (${reg.source})`;
}

/** The registry's agents next to how each would start on this machine. Pure but for PATH lookups. */
export function registryRows(reg: LoadedRegistry, envPath?: string): RegistryRow[] {
  const platform = registryPlatform();
  return reg.index.agents.map((entry) => {
    const launch = registryLaunch(entry, (bin) => which(bin, envPath), platform);
    return {
      id: entry.id,
      name: safeLine(entry.name),
      version: safeLine(entry.version),
      distribution: safeLine(describeDistribution(entry, platform)),
      starts: safeLine(
        launch.ok
          ? launch.how === "path"
            ? `${launch.what} (on PATH)`
            : `${launch.how} ${launch.what} (fetched by ${launch.how})`
          : launch.why,
      ),
      runnable: launch.ok,
      shadowedByPreset: PRESETS.some((p) => p.name === entry.id),
    };
  });
}

/** `conch agents --registry [--refresh] [--json]`. */
export async function runRegistryCommand(cmd: Extract<Command, { kind: "agents" }>): Promise<number> {
  let reg: LoadedRegistry;
  try {
    reg = cmd.refresh ? await refreshRegistry(registryCachePath(), { url: process.env.CONCH_REGISTRY_URL }) : currentRegistry();
  } catch (err) {
    process.stderr.write(`conch: ${(err as Error).message}\n`);
    if (cmd.refresh) {
      const kept = currentRegistry();
      process.stderr.write(`conch: still using ${originText(kept)}, ${registryAge(kept.fetchedAt)}\n`);
    }
    return EXIT.failed;
  }
  const rows = registryRows(reg);
  if (cmd.json) {
    const { index, ...about } = reg;
    process.stdout.write(
      `${JSON.stringify({ ...about, age: registryAge(reg.fetchedAt), skipped: index.skipped, agents: rows }, null, 2)}\n`,
    );
    return EXIT.ok;
  }
  const out: string[] = [
    `ACP registry: ${rows.length} agents, ${registryAge(reg.fetchedAt)}: ${originText(reg)}`,
    cmd.refresh ? "" : "(conch agents --registry --refresh fetches the latest)",
  ].filter(Boolean);
  const iw = Math.max(...rows.map((r) => r.id.length), 2);
  for (const r of rows) {
    out.push(`${r.id.padEnd(iw)}  ${r.name} ${r.version} · ${r.distribution}`);
    out.push(
      `${"".padEnd(iw)}  ${r.shadowedByPreset ? `--agent ${r.id} runs conch's preset of that name; ` : ""}${r.runnable ? "starts as " : "cannot start: "}${r.starts}`,
    );
  }
  for (const s of reg.index.skipped) out.push(`left out (not in the registry's format): ${safeLine(s)}`);
  process.stdout.write(`${out.join("\n")}\n`);
  return EXIT.ok;
}
