import { existsSync, readFileSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { McpServer } from "@agentclientprotocol/sdk";
import { z } from "zod";
import { ConchError } from "../errors/conch-error.js";
import { JsonLines, jsonSyntaxError } from "./config-lines.js";
import {
  contentHash,
  describeUntrusted,
  safePart,
  trustOf,
  unsafeSettings,
  type ProjectFile,
  type TrustSource,
} from "./workspace-trust.js";

const envMap = z.record(z.string(), z.string());

const agentSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: envMap.default({}),
    title: z.string().optional(),
  })
  .strict();

const ruleList = z.array(z.string()).default([]);

/** Permission rules: each a tool kind, optionally with a command or a path glob, e.g. `execute(npm test)`. */
const rulesSchema = z.object({ allow: ruleList, ask: ruleList, deny: ruleList }).strict().default({ allow: [], ask: [], deny: [] });

const mcpSchema = z.union([
  z
    .object({
      name: z.string().min(1),
      type: z.literal("stdio").optional(),
      command: z.string().min(1),
      args: z.array(z.string()).default([]),
      env: envMap.default({}),
    })
    .strict(),
  z
    .object({
      name: z.string().min(1),
      type: z.enum(["http", "sse"]),
      url: z.string().url(),
      headers: envMap.default({}),
    })
    .strict(),
]);

/** The schema of config.json and .conch.json; unknown keys are errors so typos are caught. */
const configSchema = z
  .object({
    $schema: z.string().optional(),
    defaultAgent: z.string().optional(),
    agents: z.record(z.string(), agentSchema).default({}),
    permissions: z.enum(["ask", "deny", "approve-reads", "approve-all"]).optional(),
    rules: rulesSchema,
    /** Checkpoints of the workspace before and after each turn, in conch's state dir (false: off). */
    checkpoints: z.boolean().optional(),
    mcpServers: z.array(mcpSchema).default([]),
    /** Directories besides the cwd the session may use (`--add-dir`); a project's are relative to its folder. */
    additionalDirectories: z.array(z.string().min(1)).default([]),
    /** User config only: folders whose `.conch.json` applies without asking (and every folder under them). */
    trustedFolders: z.array(z.string()).default([]),
    ui: z
      .object({
        notify: z.boolean().optional(),
        quietMs: z.number().nonnegative().optional(),
        backgroundQuietMs: z.number().nonnegative().optional(),
        stallTimeoutSeconds: z.number().positive().optional(),
        startTimeoutSeconds: z.number().positive().optional(),
      })
      .strict()
      .default({}),
  })
  .strict();

/** One permission rule as written in a config file, with where: parsed by the orchestrator's rules. */
export interface RuleEntry {
  verdict: "allow" | "ask" | "deny";
  text: string;
  layer: "user" | "project";
  file: string;
  line?: number;
}

/** A config as read: the file's settings, and (once loaded) the rules of every layer with where each is written. */
export type ConchConfig = z.infer<typeof configSchema> & { ruleEntries?: RuleEntry[] };
export type AgentConfig = z.infer<typeof agentSchema>;
type McpConfig = z.infer<typeof mcpSchema>;

/** A config file that cannot be used, with where and why (a usage error: exit 2). */
export class ConfigError extends ConchError {
  constructor(message: string) {
    super("config", message);
  }
}

/** The user config file: `$XDG_CONFIG_HOME/conch/config.json` (or `~/.config/conch/config.json`). */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CONCH_CONFIG) return env.CONCH_CONFIG;
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config");
  return path.join(base, "conch", "config.json");
}

function parseConfig(file: string, text: string, layer: RuleEntry["layer"] = "user"): ConchConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${file}: not valid JSON: ${jsonSyntaxError(text) ?? (err as Error).message}`);
  }
  const lines = new JsonLines(text);
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => {
        const line = lines.lineOf(i.path.filter((k): k is string | number => typeof k !== "symbol"));
        return `  ${line ? `line ${line}: ` : ""}${i.path.join(".") || "(root)"}: ${i.message}`;
      })
      .join("\n");
    throw new ConfigError(`${file} is not a valid conch config:\n${issues}`);
  }
  const ruleEntries: RuleEntry[] = [];
  for (const verdict of ["deny", "ask", "allow"] as const)
    parsed.data.rules[verdict].forEach((text, i) =>
      ruleEntries.push({ verdict, text, layer, file, line: lines.lineOf(["rules", verdict, i]) }),
    );
  return { ...parsed.data, ruleEntries };
}

function readUserConfig(env: NodeJS.ProcessEnv): ConchConfig {
  const file = userConfigPath(env);
  return existsSync(file) ? parseConfig(file, readFileSync(file, "utf8")) : configSchema.parse({});
}

/** A project's `.conch.json` with what trust needs to know about it. */
function readProjectConfig(
  file: string,
  user: ConchConfig,
  env: NodeJS.ProcessEnv,
): { config: ConchConfig; facts: ProjectFile; trust?: TrustSource } {
  // One read: the bytes that are hashed are the bytes that are parsed.
  const bytes = readFileSync(file);
  const config = parseConfig(file, bytes.toString("utf8"), "project");
  if (config.trustedFolders.length)
    throw new ConfigError(`${file}: trustedFolders belongs in your own config (${userConfigPath(env)}), not in a project`);
  const base = { file, dir: realpathSync(path.dirname(file)), sha256: contentHash(bytes), unsafe: unsafeSettings(config, user) };
  // A file with only safe settings applies as it is: no need to look its folder up.
  const trust = base.unsafe.length ? trustOf(base, user, env) : { changed: false };
  return { config, facts: { ...base, changed: trust.changed }, trust: trust.source };
}

/** A project whose `.conch.json` would choose what runs, in a folder the user has not trusted. */
export class UntrustedProjectError extends ConfigError {
  constructor(
    readonly project: ProjectFile,
    env: NodeJS.ProcessEnv,
  ) {
    super(describeUntrusted(project, userConfigPath(env)));
  }
}

/** What a caller allows a project's `.conch.json` to do. */
export interface ProjectAccess {
  /** `--trust`: the project's settings apply, trusted or not. */
  trust?: boolean;
  /**
   * An untrusted project with unsafe settings: `refuse` throws an UntrustedProjectError (the
   * default: the caller asks the person, or says how to trust); `leave-out` applies only its safe part.
   */
  untrusted?: "refuse" | "leave-out";
}

/** Finds `.conch.json` in the cwd or a parent, up to the repo root (a dir with .git) or /. */
function findProjectConfig(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    const file = path.join(dir, ".conch.json");
    if (existsSync(file)) return file;
    if (existsSync(path.join(dir, ".git"))) return undefined;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The user config with the project's `.conch.json` over it: scalars replaced, maps merged, MCP
 * lists joined by name. A project's settings that choose what runs or loosen permissions apply
 * only in a folder the user trusts (see workspace-trust.ts); the others always do.
 */
export function loadConfig(cwd: string, env: NodeJS.ProcessEnv = process.env, access: ProjectAccess = {}): ConchConfig {
  const user = readUserConfig(env);
  const projectFile = findProjectConfig(cwd);
  if (!projectFile) return { ...user, additionalDirectories: user.additionalDirectories.map((d) => expandDir(d, cwd)) };

  const { config, facts, trust } = readProjectConfig(projectFile, user, env);
  let project = config;
  if (facts.unsafe.length && !access.trust && !trust) {
    if (access.untrusted !== "leave-out") throw new UntrustedProjectError(facts, env);
    project = safePart(config, user);
  }
  const mcp = new Map<string, McpConfig>();
  for (const s of [...user.mcpServers, ...project.mcpServers]) mcp.set(s.name, s);
  const projectDir = path.dirname(projectFile);
  return {
    ...user,
    ...project,
    agents: { ...user.agents, ...project.agents },
    mcpServers: [...mcp.values()],
    additionalDirectories: [
      ...new Set([
        ...user.additionalDirectories.map((d) => expandDir(d, cwd)),
        ...project.additionalDirectories.map((d) => expandDir(d, projectDir)),
      ]),
    ],
    trustedFolders: user.trustedFolders,
    ui: { ...user.ui, ...project.ui },
    rules: {
      allow: [...user.rules.allow, ...project.rules.allow],
      ask: [...user.rules.ask, ...project.rules.ask],
      deny: [...user.rules.deny, ...project.rules.deny],
    },
    ruleEntries: [...(user.ruleEntries ?? []), ...(project.ruleEntries ?? [])],
  };
}

/** A configured directory as an absolute path: `~` is the home folder, a relative path is under `base`. */
function expandDir(dir: string, base: string): string {
  if (dir === "~" || dir.startsWith("~/")) return path.join(os.homedir(), dir.slice(1));
  return path.resolve(base, dir);
}

/** The project file of `cwd` and whether its settings apply: for `conch doctor`. */
export function projectTrust(cwd: string, env: NodeJS.ProcessEnv = process.env): { project: ProjectFile; trust?: TrustSource } | undefined {
  const file = findProjectConfig(cwd);
  if (!file) return undefined;
  const { facts, trust } = readProjectConfig(file, readUserConfig(env), env);
  return { project: facts, trust };
}

/** MCP servers in the protocol's shape, for `session/new` / `load` / `resume`. */
export function mcpServersFor(config: ConchConfig): McpServer[] {
  return config.mcpServers.map((s): McpServer => {
    if ("url" in s) {
      const headers = Object.entries(s.headers).map(([name, value]) => ({ name, value }));
      return { type: s.type, name: s.name, url: s.url, headers };
    }
    return { name: s.name, command: s.command, args: s.args, env: Object.entries(s.env).map(([name, value]) => ({ name, value })) };
  });
}
