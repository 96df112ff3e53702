import type { AuthMethod } from "@agentclientprotocol/sdk";
import type { AgentCommand } from "./agent-process.js";
import { asRecord } from "../json/record.js";
import { shellQuote } from "../text/shell-quote.js";

/** How a person completes one of the agent's auth methods. */
export type AuthPlan =
  /** conch calls `authenticate` and the agent does the rest (often opens a browser). */
  | { kind: "agent"; id: string; label: string; description?: string }
  /** The person sets environment variables and restarts. */
  | { kind: "env_var"; id: string; label: string; description?: string; vars: string[] }
  /** conch runs a login command in a terminal pane, then retries. */
  | { kind: "terminal"; id: string; label: string; description?: string; command: AgentCommand };

/**
 * Reads an auth method, whichever way the agent wrote it: the protocol's `type: "terminal"` (the
 * agent's own binary with extra `args`), the older `_meta["terminal-auth"]` (a full command), or
 * `type: "env_var"` with `vars`.
 */
export function planAuth(method: AuthMethod, agent: AgentCommand): AuthPlan {
  const m = method as AuthMethod & {
    type?: string;
    args?: string[];
    env?: Record<string, string>;
    vars?: { name: string }[];
    _meta?: Record<string, unknown> | null;
  };
  const base = { id: m.id, label: m.name, description: m.description ?? undefined };
  if (m.type === "terminal") {
    return {
      kind: "terminal",
      ...base,
      command: { command: agent.command, args: [...agent.args, ...(m.args ?? [])], env: { ...agent.env, ...m.env } },
    };
  }
  const legacy = asRecord(m._meta?.["terminal-auth"]);
  if (legacy && typeof legacy.command === "string") {
    const args = Array.isArray(legacy.args) ? legacy.args.filter((a): a is string => typeof a === "string") : [];
    return {
      kind: "terminal",
      ...base,
      label: typeof legacy.label === "string" ? legacy.label : base.label,
      command: { command: legacy.command, args },
    };
  }
  if (m.type === "env_var") return { kind: "env_var", ...base, vars: (m.vars ?? []).map((v) => v.name) };
  return { kind: "agent", ...base };
}

/** A shell-safe rendering of a command, for "run this" messages. */
export function shellLine(cmd: AgentCommand): string {
  const env = Object.entries(cmd.env ?? {}).map(([k, v]) => `${k}=${shellQuote(v)}`);
  return [...env, shellQuote(cmd.command), ...cmd.args.map(shellQuote)].join(" ");
}

/** What print mode says when the agent needs a login: every method and exactly what to run. */
export function authHelp(agentName: string, plans: AuthPlan[]): string {
  const lines = [`${agentName} needs you to log in first. Options:`];
  for (const p of plans) {
    if (p.kind === "terminal") lines.push(`  - ${p.label}: run  ${shellLine(p.command)}`);
    else if (p.kind === "env_var") lines.push(`  - ${p.label}: set ${p.vars.join(", ") || "the variable"} in the environment`);
    else lines.push(`  - ${p.label}: run \`conch --agent ${agentName}\` once and choose it (the agent completes the login)`);
  }
  return lines.join("\n");
}
