import { createRequire } from "node:module";
import type * as Pty from "@lydell/node-pty";

/** node-pty's API (both packages have the same one). */
export type PtyModule = typeof Pty;

/**
 * The PTY packages conch can run commands with, first found wins: `@lydell/node-pty` ships prebuilt
 * binaries (linux, macOS, Windows; x64 and arm64), so `npm install` needs no compiler; `node-pty`,
 * an optional dependency built on the machine, is the fallback for any other platform.
 */
export const PTY_PACKAGES = ["@lydell/node-pty", "node-pty"] as const;

const load = createRequire(import.meta.url);
let loaded: { name: string; module: PtyModule } | undefined;

/** The PTY module, loaded on first use (it is native, and needed only once a command runs). */
export function ptyModule(): { name: string; module: PtyModule } {
  if (loaded) return loaded;
  const failures: string[] = [];
  for (const name of PTY_PACKAGES) {
    try {
      loaded = { name, module: load(name) as PtyModule };
      return loaded;
    } catch (err) {
      failures.push(`${name}: ${(err as Error).message.split("\n")[0]}`);
    }
  }
  throw new Error(`no PTY module could be loaded (${failures.join("; ")}); reinstall conch (npm install) so that one is present`);
}
