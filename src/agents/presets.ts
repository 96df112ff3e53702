import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentCommand } from "./agent-process.js";
import type { AgentConfig } from "./config-file.js";
import { ConchError } from "../errors/conch-error.js";
import { registryLaunch } from "./registry/registry-agent.js";
import type { RegistryIndex } from "./registry/registry-format.js";

/** A known ACP agent: how to start it and how it logs in. */
export interface AgentPreset {
  name: string;
  title: string;
  /** A binary to look for on PATH first. */
  bin?: string;
  binArgs?: string[];
  /** The npm package to run with `npx -y` when the binary is not installed. */
  npmPackage?: string;
  npxArgs?: string[];
  auth: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** The built-in presets. `demo` is conch's own scripted agent. */
export const PRESETS: AgentPreset[] = [
  { name: "demo", title: "conch demo agent", auth: "none" },
  {
    name: "claude",
    title: "Claude Code (claude-agent-acp)",
    bin: "claude-agent-acp",
    npmPackage: "@agentclientprotocol/claude-agent-acp",
    auth: "ANTHROPIC_API_KEY, or log in once with `claude /login`",
  },
  {
    name: "codex",
    title: "Codex (codex-acp)",
    bin: "codex-acp",
    // The ACP organisation's adapter over the Codex App Server (2.x); the Rust `@zed-industries/codex-acp` is frozen at 0.16.
    npmPackage: "@agentclientprotocol/codex-acp",
    auth: "OPENAI_API_KEY / CODEX_API_KEY, or ChatGPT login via `codex login`",
  },
  {
    name: "gemini",
    title: "Gemini CLI",
    bin: "gemini",
    binArgs: ["--acp"],
    npmPackage: "@google/gemini-cli",
    npxArgs: ["--acp"],
    auth: "GEMINI_API_KEY, or Google login via `gemini` once",
  },
  {
    name: "opencode",
    title: "opencode",
    bin: "opencode",
    binArgs: ["acp"],
    npmPackage: "opencode-ai",
    npxArgs: ["acp"],
    auth: "`opencode auth login`",
  },
  { name: "goose", title: "goose", bin: "goose", binArgs: ["acp"], auth: "`goose configure`" },
];

/** Finds an executable on PATH. */
export function which(bin: string, envPath = process.env.PATH ?? ""): string | undefined {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, bin);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/**
 * The command that starts conch's demo agent, from this build: the bundle's `demo.js` beside the
 * bundled CLI (dist/bundle/), else tsc's `demo/main.js` (dist/), else, from sources, the built one.
 */
export function demoAgentCommand(): AgentCommand {
  const candidates = [path.resolve(here, "demo.js"), path.resolve(here, "../demo/main.js"), path.resolve(here, "../../dist/demo/main.js")];
  return { command: process.execPath, args: [candidates.find((p) => existsSync(p)) ?? candidates[candidates.length - 1]] };
}

/** Splits a command line the way a shell would for simple quoting ('…', "…", \\). */
function splitCommandLine(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quote: "'" | '"' | null = null;
  let has = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (c === "\\" && i + 1 < line.length) {
      cur += line[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (cur || has) out.push(cur);
      cur = "";
      has = false;
    } else {
      cur += c;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} in agent command: ${line}`);
  if (cur || has) out.push(cur);
  return out;
}

/** An agent conch connects to instead of starting: its URL and the transport that URL means. */
export interface RemoteAgent {
  url: string;
  transport: "ws" | "http";
}

/** Resolved agent: a display name and the command to start it, or the URL of a remote one. */
export interface ResolvedAgent {
  name: string;
  preset?: AgentPreset;
  /** For a remote agent, its URL as the only word: what the session index records. */
  command: AgentCommand;
  /** How it was found: the built-in demo, an installed binary, npx, a config entry, a raw command line, a URL, or the ACP registry. */
  via: "builtin" | "path" | "npx" | "config" | "command" | "remote" | "registry";
  /** For a registry agent: its entry's name and version, and how the registry says to start it. */
  registry?: { name: string; version: string; how: "path" | "npx" | "uvx" };
  remote?: RemoteAgent;
}

/** `ws://`, `wss://` (WebSocket) or `http://`, `https://` (streamable HTTP): an agent behind a URL. */
export function remoteAgentOf(spec: string): RemoteAgent | undefined {
  const m = /^(wss?|https?):\/\/\S+$/i.exec(spec.trim());
  if (!m) return undefined;
  let url: URL;
  try {
    url = new URL(spec.trim());
  } catch {
    return undefined;
  }
  return { url: url.href, transport: m[1].toLowerCase().startsWith("ws") ? "ws" : "http" };
}

/**
 * Resolves `--agent`: a URL (a remote agent), an agent from the config file, a preset name
 * (installed binary first, then npx), an ACP registry id (started the way the registry says, see
 * `registry/registry-agent.ts`), or a raw command line.
 */
export function resolveAgent(
  spec: string,
  configured: Record<string, AgentConfig> = {},
  envPath?: string,
  registry?: () => RegistryIndex,
): ResolvedAgent {
  const remote = remoteAgentOf(spec);
  if (remote) {
    const url = new URL(remote.url);
    // Named by where it runs; a password in the URL stays out of every name shown or recorded.
    return { name: url.host, command: { command: remote.url, args: [] }, via: "remote", remote };
  }
  const custom = configured[spec];
  if (custom) return { name: spec, command: { command: custom.command, args: custom.args, env: custom.env }, via: "config" };
  const preset = PRESETS.find((p) => p.name === spec);
  if (preset) {
    if (preset.name === "demo") return { name: "demo", preset, command: demoAgentCommand(), via: "builtin" };
    const found = preset.bin ? which(preset.bin, envPath) : undefined;
    if (found) return { name: preset.name, preset, command: { command: found, args: preset.binArgs ?? [] }, via: "path" };
    if (preset.npmPackage) {
      return {
        name: preset.name,
        preset,
        command: { command: "npx", args: ["-y", preset.npmPackage, ...(preset.npxArgs ?? [])] },
        via: "npx",
      };
    }
    throw new Error(`agent ${preset.name} is not installed: ${preset.bin} was not found on PATH`);
  }
  // One word that names no program on PATH: it may be the id of a registry agent.
  const entry =
    /^[a-z][a-z0-9-]*$/.test(spec) && registry && !which(spec, envPath) ? registry().agents.find((a) => a.id === spec) : undefined;
  if (entry) {
    const launch = registryLaunch(entry, (bin) => which(bin, envPath));
    if (!launch.ok) throw new Error(`registry agent ${spec}: ${launch.why}`);
    return {
      name: spec,
      command: launch.command,
      via: "registry",
      registry: { name: entry.name, version: entry.version, how: launch.how },
    };
  }
  const words = splitCommandLine(spec);
  if (words.length === 0) throw new Error("--agent needs a preset name or a command line");
  // A bare program name that is nowhere on PATH is most likely a mistyped preset: say what there is.
  if (!words[0].includes("/") && !which(words[0], envPath)) {
    const known = [...Object.keys(configured), ...PRESETS.map((p) => p.name)];
    throw new ConchError(
      "agent-start",
      `--agent ${spec}: "${words[0]}" is neither an agent preset nor a program on PATH (presets: ${known.join(", ")}; or give a command line or a ws:// URL)`,
    );
  }
  return { name: path.basename(words[0]), command: { command: words[0], args: words.slice(1) }, via: "command" };
}

/** Programs that run a script named by their first argument: the script says which agent it is. */
const INTERPRETERS = /^(node|nodejs|bun|deno|python3?|ruby|npx|uvx)$/;

/**
 * How to name an agent before it has named itself in `initialize`: a preset's or config entry's
 * name, a remote agent's host, or a command line's program, with the package or script it runs
 * when the program is an interpreter (`node` alone says nothing). Short: it goes in one status line.
 */
export function agentCalled(agent: ResolvedAgent): string {
  if (agent.via !== "command" || !INTERPRETERS.test(agent.name)) return agent.name;
  const script = agent.command.args.find((a) => !a.startsWith("-"));
  if (!script) return agent.name;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(script)?.[1];
  return `${agent.name} ${pkg ?? path.basename(script)}`;
}
