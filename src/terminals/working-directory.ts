import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { isInside } from "../paths/is-inside.js";

/**
 * Resolves the working directory for a command: `requested` (a relative path counts from `root`),
 * defaulting to `root`. With `confine`, its real path (symlinks followed) must lie inside the real
 * root. Throws an Error meant for the agent when the directory is missing, is not a directory, or
 * is outside the root.
 */
export async function resolveWorkingDirectory(requested: string | null | undefined, root: string, confine: boolean): Promise<string> {
  const target = requested ? path.resolve(root, requested) : path.resolve(root);
  const real = await realpathOrThrow(target);
  const info = await stat(real);
  if (!info.isDirectory()) throw new Error(`Working directory is not a directory: ${target}`);
  if (confine) {
    const realRoot = await realpathOrThrow(path.resolve(root));
    if (!isInside(realRoot, real)) {
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
