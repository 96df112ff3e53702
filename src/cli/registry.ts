import type { RegistryIndex } from "../agents/registry/registry-format.js";
import { loadRegistry, type LoadedRegistry } from "../agents/registry/registry-store.js";
import { registryCachePath } from "../store/state-dir.js";

/** The ACP registry conch runs from here: `$CONCH_REGISTRY`, the last refresh, or the shipped snapshot. */
export function currentRegistry(env: NodeJS.ProcessEnv = process.env): LoadedRegistry {
  return loadRegistry(registryCachePath(env), env);
}

/** The registry's agents, read only when an `--agent` needs them (a word that is no preset or program). */
export function registryAgents(env: NodeJS.ProcessEnv = process.env): () => RegistryIndex {
  let index: RegistryIndex | undefined;
  return () => (index ??= currentRegistry(env).index);
}
