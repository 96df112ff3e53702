import { createHash } from "node:crypto";
import { closeSync, readFileSync, realpathSync, renameSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { ensurePrivateDir, fsyncDirSync, openPrivateFileSync, writeAllSync } from "../store/private-fs.js";
import { resolveStateDir } from "../store/state-dir.js";
import { safeLine } from "../text/terminal-safe.js";
import type { ConchConfig } from "./config-file.js";
import { PRESETS } from "./presets.js";

/** One setting of a project's `.conch.json` that chooses what runs or loosens permissions. */
export interface UnsafeSetting {
  /** Where it is in the file: `defaultAgent`, `agents.mine`, `mcpServers.files`, `permissions`. */
  key: string;
  /** What it would do, for a person: the command it runs, the policy it sets. */
  effect: string;
}

/** A project's `.conch.json`, as trust sees it. */
export interface ProjectFile {
  file: string;
  /** The real path of the folder holding it: what is trusted. */
  dir: string;
  /** SHA-256 of its bytes: a trusted file that changes is asked about again. */
  sha256: string;
  unsafe: UnsafeSetting[];
  /** Trusted once, but the file has changed since. */
  changed: boolean;
}

/** How a folder came to be trusted: the trust store, or `trustedFolders` in the user config. */
export type TrustSource = "trusted-folders" | "config";

/** What the person decided about an untrusted project's `.conch.json`: trust it, start without its unsafe settings, or quit. */
export type TrustChoice = "trust" | "leave-out" | "quit";

const POLICY_RANK = { deny: 0, ask: 1, "approve-reads": 2, "approve-all": 3 } as const;

/** The hash that keys a file's trust to its content. */
export function contentHash(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** How a command line reads for a person: each argument quoted when it needs to be. */
function commandLine(command: string, args: string[]): string {
  return [command, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(" ");
}

/**
 * The settings of a project file that choose what runs (the default agent, agents, MCP servers) or
 * give the agent more than the user's own setting would (`permissions`, `additionalDirectories`). Everything else (ui
 * timings, notifications, a stricter policy) is safe to apply from a repo nobody vetted.
 */
export function unsafeSettings(project: ConchConfig, user: ConchConfig): UnsafeSetting[] {
  const unsafe: UnsafeSetting[] = [];
  const name = project.defaultAgent;
  if (name !== undefined) {
    const what = project.agents[name]
      ? `agents.${name}`
      : user.agents[name]
        ? "your agent"
        : PRESETS.some((p) => p.name === name)
          ? "preset"
          : "a command line";
    unsafe.push({ key: "defaultAgent", effect: `${name} (${what})` });
  }
  for (const [name, agent] of Object.entries(project.agents))
    unsafe.push({ key: `agents.${name}`, effect: `runs ${commandLine(agent.command, agent.args)}` });
  for (const server of project.mcpServers) {
    unsafe.push({
      key: `mcpServers.${server.name}`,
      effect: "url" in server ? `connects to ${server.url}` : `runs ${commandLine(server.command, server.args)}`,
    });
  }
  // The agent's files reach past the repo only where the person says so.
  for (const dir of project.additionalDirectories) unsafe.push({ key: "additionalDirectories", effect: `opens ${dir} to the agent` });
  // A project's deny and ask rules only tighten; its allow rules loosen, so they wait for trust.
  for (const rule of project.rules.allow) unsafe.push({ key: "rules.allow", effect: `allows ${rule} without asking` });
  const userPolicy = user.permissions ?? "ask";
  if (project.permissions && POLICY_RANK[project.permissions] > POLICY_RANK[userPolicy]) {
    unsafe.push({ key: "permissions", effect: `${project.permissions} (yours: ${userPolicy})` });
  }
  return unsafe;
}

/** The project config without its unsafe settings: what applies while the folder is not trusted. */
export function safePart(project: ConchConfig, user: ConchConfig): ConchConfig {
  const safe: ConchConfig = {
    ...project,
    agents: {},
    mcpServers: [],
    additionalDirectories: [],
    rules: { ...project.rules, allow: [] },
    ruleEntries: project.ruleEntries?.filter((r) => r.verdict !== "allow"),
  };
  delete safe.defaultAgent;
  if (unsafeSettings(project, user).some((s) => s.key === "permissions")) delete safe.permissions;
  return safe;
}

const storeSchema = z.object({
  version: z.literal(1),
  folders: z.record(z.string(), z.object({ sha256: z.string(), trustedAt: z.string() })),
});
type TrustStore = z.infer<typeof storeSchema>;

/**
 * Where conch remembers the folders the user trusted: its state dir, beside the sessions. It is
 * conch's own record of a decision about this machine's paths, not a setting one copies between
 * machines; the hand-written form is `trustedFolders` in the user config.
 */
export function trustStorePath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(resolveStateDir(env), "trusted-folders.json");
}

function readStore(file: string): TrustStore {
  try {
    const parsed = storeSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    if (parsed.success) return parsed.data;
  } catch {
    /* missing or damaged: nothing is trusted, the person is asked again */
  }
  return { version: 1, folders: {} };
}

/** `trustedFolders` of the user config: a folder trusts itself and everything under it. */
function listedInConfig(dir: string, user: ConchConfig): boolean {
  for (const entry of user.trustedFolders) {
    const expanded = entry === "~" || entry.startsWith("~/") ? path.join(os.homedir(), entry.slice(1)) : entry;
    let real: string;
    try {
      real = realpathSync(path.resolve(expanded));
    } catch {
      continue;
    }
    if (dir === real || dir.startsWith(real.endsWith(path.sep) ? real : `${real}${path.sep}`)) return true;
  }
  return false;
}

/** Whether the user trusts this project file as it is now, and how; `changed` when an older version was trusted. */
export function trustOf(
  project: Omit<ProjectFile, "changed">,
  user: ConchConfig,
  env: NodeJS.ProcessEnv = process.env,
): { source?: TrustSource; changed: boolean } {
  if (listedInConfig(project.dir, user)) return { source: "config", changed: false };
  const entry = readStore(trustStorePath(env)).folders[project.dir];
  if (entry?.sha256 === project.sha256) return { source: "trusted-folders", changed: false };
  return { changed: entry !== undefined };
}

/** Remembers that the user trusts this project file, as it is now (0600, written whole or not at all). */
export function rememberTrust(project: Pick<ProjectFile, "dir" | "sha256">, env: NodeJS.ProcessEnv = process.env): void {
  const file = trustStorePath(env);
  ensurePrivateDir(path.dirname(file));
  const store = readStore(file);
  store.folders[project.dir] = { sha256: project.sha256, trustedAt: new Date().toISOString() };
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openPrivateFileSync(temp, "w");
  try {
    writeAllSync(fd, `${JSON.stringify(store, null, 2)}\n`);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
  fsyncDirSync(path.dirname(file));
}

/** What an untrusted project wants, and how to trust it: for print mode's refusal and `conch doctor`. */
export function describeUntrusted(project: ProjectFile, configPath: string): string {
  const width = Math.max(...project.unsafe.map((s) => s.key.length));
  const lines = project.unsafe.map((s) => `  ${safeLine(s.key).padEnd(width)}  ${safeLine(s.effect)}`);
  const why = project.changed ? "changed since you trusted it" : "is in a folder you have not trusted";
  return [
    `${safeLine(project.file)} ${why}, and it sets what conch runs or what the agent may do:`,
    ...lines,
    "Nothing was run. To trust this folder: run `conch` here once and choose to trust it, or pass --trust",
    `(this run only), or add the folder to "trustedFolders" in ${configPath}.`,
  ].join("\n");
}
