import type { AgentCommand } from "../agents/agent-process.js";
import { planAuth, shellLine, type AuthPlan } from "../agents/auth-methods.js";
import { describeRpcError } from "../acp/agent-connection.js";
import type { AgentPort, AgentRequests, SessionEvents, TerminalService } from "./ports.js";

/** What a login needs: the agent's name, where it runs, its terminals, conch's own requests. */
export interface LoginContext {
  agentName: string;
  cwd: string;
  link: AgentPort;
  terminals?: TerminalService;
  requests: AgentRequests;
}

/**
 * Carries out a login plan: the agent's own `authenticate` (method `methodId`), or a login command
 * in a terminal pane. Throws, for a person, why it could not.
 */
export async function runLogin(plan: AuthPlan, methodId: string, ctx: LoginContext): Promise<void> {
  if (plan.kind === "terminal") {
    if (ctx.link.runsLocally === false) throw new Error(`${ctx.agentName} runs remotely: its terminal login cannot run here`);
    if (!ctx.terminals?.runLogin) throw new Error(`run this to log in, then start conch again: ${shellLine(plan.command)}`);
    const status = await ctx.terminals.runLogin(plan.command, ctx.cwd);
    if (status.exitCode !== 0) throw new Error(`the login command exited ${status.signal ?? `with code ${status.exitCode}`}`);
  } else if (plan.kind === "env_var") {
    throw new Error(`set ${plan.vars.join(", ")} in the environment and start conch again`);
  } else {
    await ctx.requests.run((ctl) => ctx.link.conn.authenticate(methodId, ctl));
  }
}

/**
 * Logs in with the agent's auth method `methodId` (one the session's `auth` state offers); says in
 * the transcript why it failed. Resolves true when the session can be opened again.
 */
export async function logIn(methodId: string, command: AgentCommand, events: SessionEvents, ctx: LoginContext): Promise<boolean> {
  const method = events.state.auth?.methods.find((m) => m.id === methodId);
  if (!method) return false;
  const plan = planAuth(method, command);
  try {
    await runLogin(plan, methodId, ctx);
    return true;
  } catch (err) {
    events.dispatch({ type: "notice", level: "error", text: `login with ${plan.label} failed: ${describeRpcError(err)}` });
    return false;
  }
}
