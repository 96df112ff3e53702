import { realpath } from "node:fs/promises";
import path from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";

/** True when `child` is `root` or inside it. */
export function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The deepest existing ancestor's real path, plus the rest: a file being created has no real path yet. */
async function realPathOfMaybeMissing(p: string): Promise<string> {
  const missing: string[] = [];
  let cur = p;
  for (;;) {
    try {
      const real = await realpath(cur);
      return path.join(real, ...missing.reverse());
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      const parent = path.dirname(cur);
      if (parent === cur) return p;
      missing.push(path.basename(cur));
      cur = parent;
    }
  }
}

/**
 * Resolves a path an agent asked for and refuses it unless it stays inside the workspace, after
 * following symlinks: a link that points out of the workspace is as far out as its target.
 */
export async function confinePath(root: string, requested: string): Promise<string> {
  if (typeof requested !== "string" || requested === "") throw RequestError.invalidParams(undefined, "path is required");
  const abs = path.resolve(root, requested);
  const realRoot = await realpath(root);
  const real = await realPathOfMaybeMissing(abs);
  if (!isInside(realRoot, real)) {
    throw new RequestError(-32602, `Access denied: ${requested} is outside the workspace ${root}`, { path: requested, workspace: root });
  }
  return real;
}
