import { realpath, stat } from "node:fs/promises";
import path from "node:path";

/**
 * Resolves the working directory for a command: `requested` (relative paths count from `root`, or
 * from conch's own cwd without one), defaulting to `root`. With `root` set, the real path (symlinks
 * followed) must lie inside the real root. Throws an Error meant for the agent when the directory
 * is missing, is not a directory, or escapes the root.
 */
export async function resolveWorkingDirectory(requested: string | null | undefined, root?: string): Promise<string> {
  const base = root ?? process.cwd();
  const target = requested ? path.resolve(base, requested) : path.resolve(base);
  const real = await realpathOrThrow(target);
  const info = await stat(real);
  if (!info.isDirectory()) throw new Error(`Working directory is not a directory: ${target}`);
  if (root !== undefined) {
    const realRoot = await realpathOrThrow(path.resolve(root));
    if (!isInside(real, realRoot)) {
      throw new Error(`Working directory ${target} is outside the session root ${realRoot}; refusing to run the command there.`);
    }
  }
  return real;
}

async function realpathOrThrow(target: string): Promise<string> {
  try {
    return await realpath(target);
  } catch {
    throw new Error(`Working directory does not exist: ${target}`);
  }
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative));
}
