import path from "node:path";

/**
 * True when `child` is `root` or inside it, compared as written (resolve symlinks first where it
 * matters). A name that merely starts with dots (`..notes`) is inside; `..` and `../x` are not.
 */
export function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
