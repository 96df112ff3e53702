import { z } from "zod";

// The ACP registry's `registry.json` (github.com/agentclientprotocol/registry, FORMAT.md and
// agent.schema.json): `{version, agents, extensions}`, each entry with its distributions. Fields
// conch does not use are kept but not required; an entry conch cannot read is left out, not fatal.

const env = z.record(z.string(), z.string());

const binaryTarget = z.object({
  archive: z.string(),
  /** What to run after extracting the archive, e.g. `./codex-acp`. */
  cmd: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: env.optional(),
});

const packageDistribution = z.object({
  package: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: env.optional(),
});

const entrySchema = z.object({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/),
  name: z.string().min(1),
  version: z.string(),
  description: z.string(),
  repository: z.string().optional(),
  authors: z.array(z.string()).optional(),
  license: z.string().optional(),
  icon: z.string().optional(),
  distribution: z.object({
    /** Per platform (`linux-x86_64`, `darwin-aarch64`, …): an archive to download and a command in it. */
    binary: z.record(z.string(), binaryTarget).optional(),
    npx: packageDistribution.optional(),
    uvx: packageDistribution.optional(),
  }),
});

/** One agent of the registry. */
export type RegistryEntry = z.infer<typeof entrySchema>;
/** A package distribution (`npx`, `uvx`). */
export type PackageDistribution = z.infer<typeof packageDistribution>;
/** A binary distribution's target on one platform. */
export type BinaryTarget = z.infer<typeof binaryTarget>;

/** What conch read of a `registry.json`: its agents, and the entries it had to leave out. */
export interface RegistryIndex {
  version: string;
  agents: RegistryEntry[];
  /** `id: why` of each entry that did not fit the format. */
  skipped: string[];
}

/** Reads a parsed `registry.json`; throws when it is not one at all. */
export function readRegistry(json: unknown): RegistryIndex {
  const top = z.object({ version: z.string(), agents: z.array(z.unknown()) }).safeParse(json);
  if (!top.success) throw new Error(`not an ACP registry index (want {version, agents: [...]}): ${top.error.issues[0]?.message ?? ""}`);
  const agents: RegistryEntry[] = [];
  const skipped: string[] = [];
  for (const raw of top.data.agents) {
    const entry = entrySchema.safeParse(raw);
    if (entry.success) agents.push(entry.data);
    else {
      const id = (raw as { id?: unknown } | null)?.id;
      skipped.push(`${typeof id === "string" ? id : "?"}: ${entry.error.issues[0]?.path.join(".")} ${entry.error.issues[0]?.message}`);
    }
  }
  return { version: top.data.version, agents, skipped };
}

/** The registry's name for this machine's platform (`linux-x86_64`, `darwin-aarch64`, …). */
export function registryPlatform(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  const os = platform === "win32" ? "windows" : platform;
  const cpu = arch === "x64" ? "x86_64" : arch === "arm64" ? "aarch64" : arch;
  return `${os}-${cpu}`;
}
