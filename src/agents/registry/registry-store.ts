import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConchError } from "../../errors/conch-error.js";
import { readRegistry, type RegistryIndex } from "./registry-format.js";
import { REGISTRY_SNAPSHOT } from "./registry-snapshot.js";

/** Where the registry publishes its index (its README's "Usage"). */
export const REGISTRY_URL = "https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json";

/** The registry conch runs from, and how old it is. */
export interface LoadedRegistry {
  index: RegistryIndex;
  /** When this copy was fetched (ISO). */
  fetchedAt: string;
  /** Shipped with conch, fetched by `--refresh`, or a file named by `$CONCH_REGISTRY`. */
  origin: "shipped" | "refreshed" | "file";
  /** Where it came from: the snapshot's source, the URL, or the file. */
  source: string;
}

/** The cache file's shape: the registry as fetched, with when and from where. */
interface CacheFile {
  fetchedAt: string;
  url: string;
  registry: unknown;
}

function shipped(): LoadedRegistry {
  return {
    index: readRegistry(REGISTRY_SNAPSHOT.registry),
    fetchedAt: REGISTRY_SNAPSHOT.fetchedAt,
    origin: "shipped",
    source: REGISTRY_SNAPSHOT.source,
  };
}

function readCache(file: string): LoadedRegistry | undefined {
  try {
    const cache = JSON.parse(readFileSync(file, "utf8")) as CacheFile;
    if (typeof cache.fetchedAt !== "string" || Number.isNaN(Date.parse(cache.fetchedAt))) return undefined;
    return { index: readRegistry(cache.registry), fetchedAt: cache.fetchedAt, origin: "refreshed", source: cache.url };
  } catch {
    // No refresh yet, or a broken file: the shipped snapshot serves.
    return undefined;
  }
}

/**
 * The registry to use: the file `$CONCH_REGISTRY` names (a `registry.json`, e.g. a test registry of
 * locally installed agents), else the newer of the last refresh and the snapshot conch ships.
 * Never touches the network.
 */
export function loadRegistry(cacheFile: string, env: NodeJS.ProcessEnv = process.env): LoadedRegistry {
  const override = env.CONCH_REGISTRY;
  if (override) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(override, "utf8"));
    } catch (err) {
      throw new ConchError("config", `CONCH_REGISTRY=${override}: ${(err as Error).message}`);
    }
    return { index: readRegistry(json), fetchedAt: statSync(override).mtime.toISOString(), origin: "file", source: override };
  }
  const cached = readCache(cacheFile);
  const ship = shipped();
  return cached && Date.parse(cached.fetchedAt) > Date.parse(ship.fetchedAt) ? cached : ship;
}

/**
 * Fetches the registry index over https and keeps it (atomically) for later runs. Offline, or on
 * anything but a valid index, it throws a ConchError that says so; the copy in use stays.
 */
export async function refreshRegistry(
  cacheFile: string,
  opts: { url?: string; timeoutMs?: number; now?: () => Date; fetch?: typeof fetch } = {},
): Promise<LoadedRegistry> {
  const url = opts.url ?? REGISTRY_URL;
  const get = opts.fetch ?? fetch;
  let json: unknown;
  try {
    const res = await get(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000), headers: { accept: "application/json" } });
    if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`);
    json = await res.json();
  } catch (err) {
    throw new ConchError("network", `could not fetch the ACP registry from ${url}: ${fetchFailure(err, opts.timeoutMs ?? 15_000)}`);
  }
  let index: RegistryIndex;
  try {
    index = readRegistry(json);
  } catch (err) {
    throw new ConchError("network", `${url} did not answer with an ACP registry: ${(err as Error).message}`);
  }
  const fetchedAt = (opts.now?.() ?? new Date()).toISOString();
  const body: CacheFile = { fetchedAt, url, registry: json };
  mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(body), { mode: 0o600 });
  renameSync(tmp, cacheFile);
  return { index, fetchedAt, origin: "refreshed", source: url };
}

/** Why a fetch failed, in words: offline, refused, timed out, or what the error says. */
function fetchFailure(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.cause?.code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `the host name does not resolve (${code}): offline?`;
  if (code === "ECONNREFUSED" || code === "ECONNRESET" || code === "ENETUNREACH") return `no connection (${code})`;
  if (e.name === "TimeoutError") return `no answer within ${timeoutMs / 1000} s`;
  return e.cause?.message ?? e.message ?? String(err);
}

/** "from 2026-02-07, 292 days old" (or "fetched today"). */
export function registryAge(fetchedAt: string, now: Date = new Date()): string {
  const days = Math.floor((now.getTime() - Date.parse(fetchedAt)) / 86_400_000);
  const date = fetchedAt.slice(0, 10);
  if (days <= 0) return `from ${date}, fetched today`;
  return `from ${date}, ${days} day${days === 1 ? "" : "s"} old`;
}
