import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { McpServer } from "@agentclientprotocol/sdk";
import { z } from "zod";

const envMap = z.record(z.string(), z.string());

const agentSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: envMap.default({}),
    title: z.string().optional(),
  })
  .strict();

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
export const configSchema = z
  .object({
    $schema: z.string().optional(),
    defaultAgent: z.string().optional(),
    agents: z.record(z.string(), agentSchema).default({}),
    permissions: z.enum(["ask", "deny", "approve-reads", "approve-all"]).optional(),
    mcpServers: z.array(mcpSchema).default([]),
    ui: z
      .object({
        notify: z.boolean().optional(),
        quietMs: z.number().nonnegative().optional(),
        backgroundQuietMs: z.number().nonnegative().optional(),
        stallTimeoutSeconds: z.number().positive().optional(),
      })
      .strict()
      .default({}),
  })
  .strict();

export type ConchConfig = z.infer<typeof configSchema>;
export type AgentConfig = z.infer<typeof agentSchema>;
type McpConfig = z.infer<typeof mcpSchema>;

/** A config file that cannot be used, with where and why. */
export class ConfigError extends Error {}

/** The user config file: `$XDG_CONFIG_HOME/conch/config.json` (or `~/.config/conch/config.json`). */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CONCH_CONFIG) return env.CONCH_CONFIG;
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config");
  return path.join(base, "conch", "config.json");
}

function readOne(file: string): ConchConfig | undefined {
  if (!existsSync(file)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new ConfigError(`${file}: not valid JSON: ${(err as Error).message}`);
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(root)"}: ${i.message}`).join("\n");
    throw new ConfigError(`${file} is not a valid conch config:\n${issues}`);
  }
  return parsed.data;
}

/** Finds `.conch.json` in the cwd or a parent, up to the repo root (a dir with .git) or /. */
export function findProjectConfig(cwd: string): string | undefined {
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

/** The user config with the project's `.conch.json` over it: scalars replaced, maps merged, MCP lists joined by name. */
export function loadConfig(cwd: string, env: NodeJS.ProcessEnv = process.env): ConchConfig {
  const user = readOne(userConfigPath(env)) ?? configSchema.parse({});
  const projectFile = findProjectConfig(cwd);
  const project = projectFile ? readOne(projectFile) : undefined;
  if (!project) return user;
  const mcp = new Map<string, McpConfig>();
  for (const s of [...user.mcpServers, ...project.mcpServers]) mcp.set(s.name, s);
  return {
    ...user,
    ...project,
    agents: { ...user.agents, ...project.agents },
    mcpServers: [...mcp.values()],
    ui: { ...user.ui, ...project.ui },
  };
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
