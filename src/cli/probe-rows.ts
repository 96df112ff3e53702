import type {
  AvailableCommand,
  Implementation,
  InitializeResponse,
  NewSessionResponse,
  SessionConfigOption,
} from "@agentclientprotocol/sdk";
import { profileFor } from "../session/profiles/select-profile.js";
import { TURN_SIGNAL_ORDER, TURN_SIGNAL_SOURCES } from "../session/profiles/turn-signals.js";
import { advertisesSteering } from "../acp/steering.js";
import { planAuth } from "../agents/auth-methods.js";
import { readModels } from "../orchestrator/session-response.js";
import { safeLine } from "../text/terminal-safe.js";
import { asRecord } from "../json/record.js";

/** One line of a probe: what the agent says about one capability, and what conch does with it. */
export interface ProbeRow {
  capability: string;
  advertised: string;
  conch: string;
}

const yes = (v: unknown) => (v === undefined || v === null || v === false ? "no" : "yes");

function optionValues(o: SessionConfigOption): string {
  const r = o as SessionConfigOption & { options?: unknown };
  if (o.type !== "select" || !Array.isArray(r.options)) return String(o.currentValue);
  const values = (r.options as unknown[]).flatMap((x) => {
    const g = asRecord(x);
    if (!g) return [];
    // Options may come grouped: { group, options: [...] }.
    if (Array.isArray(g.options)) return (g.options as unknown[]).map((y) => String(asRecord(y)?.value ?? "?"));
    return [String(g.value ?? "?")];
  });
  return values.map((v) => (v === String(o.currentValue) ? `${v}*` : v)).join(", ");
}

/** One turn signal as the probe lists it: what it is, whether this agent gives it, and what it says. */
export interface SignalRow {
  signal: string;
  /** "gives it", or what happens when it does not (accepted all the same, should it start to). */
  agent: string;
  says: string;
}

/**
 * How conch knows this agent's work is over, best first: every signal conch accepts, the ones the
 * agent's profile knows it gives marked, from the one table in `session/profiles/turn-signals.ts`.
 */
export function turnSignalRows(info: Implementation | null | undefined): SignalRow[] {
  const profile = profileFor(info);
  const gives = new Set(profile.turnSignals);
  return TURN_SIGNAL_ORDER.map((id) => ({
    signal: TURN_SIGNAL_SOURCES[id].wire,
    agent: gives.has(id) ? "gives it" : id === "quiet_period" || id === "held_response" ? "-" : "accepted if sent",
    says: TURN_SIGNAL_SOURCES[id].says,
  })).filter((r) => r.agent !== "-");
}

/** The models as a list, the current one starred; model/effort pairs grouped by model: `gpt-5.5[low|medium*|high]`. */
function modelList(
  models: NonNullable<ReturnType<typeof readModels>>,
  split?: (id: string) => { model: string; effort: string } | undefined,
): string {
  const star = (id: string, text: string) => (id === models.currentModelId ? `${text}*` : text);
  const pairs = split ? models.availableModels.map((m) => ({ id: m.modelId, pair: split(m.modelId) })) : [];
  if (!pairs.length || pairs.some((p) => !p.pair))
    return models.availableModels.map((m) => star(m.modelId, safeLine(m.modelId))).join(", ");
  const groups = new Map<string, string[]>();
  for (const { id, pair } of pairs) groups.set(pair!.model, [...(groups.get(pair!.model) ?? []), star(id, safeLine(pair!.effort))]);
  return [...groups].map(([model, efforts]) => `${safeLine(model)}[${efforts.join("|")}]`).join(", ");
}

/**
 * The probe's table: each capability the agent advertises in `initialize` (and what `session/new`
 * offers), next to what conch does with it. Pure, so it can be checked against recorded traces.
 */
export function probeRows(init: InitializeResponse, session?: NewSessionResponse, commands: readonly AvailableCommand[] = []): ProbeRow[] {
  const caps = init.agentCapabilities ?? {};
  const sc = (caps.sessionCapabilities ?? {}) as Record<string, unknown>;
  const prompt = caps.promptCapabilities ?? {};
  const mcp = caps.mcpCapabilities ?? {};
  const rows: ProbeRow[] = [
    {
      capability: "session/load",
      advertised: yes(caps.loadSession),
      conch: caps.loadSession ? "--resume opens the session with its history replayed" : "--resume shows conch's own log instead",
    },
    {
      capability: "session/resume",
      advertised: yes(sc.resume),
      conch: sc.resume
        ? caps.loadSession
          ? "/restart after a failure continues without a replay"
          : "--resume and /restart continue the session (no replay)"
        : "-",
    },
    {
      capability: "session/list",
      advertised: yes(sc.list),
      conch: sc.list ? "conch sessions --agent lists the agent's sessions too" : "-",
    },
    {
      capability: "session/close",
      advertised: yes(sc.close),
      conch: sc.close ? "quitting closes the session at the agent" : "quitting only stops the agent",
    },
    {
      capability: "session/fork",
      advertised: yes(sc.fork),
      conch: sc.fork ? "/fork goes on in a new session from this one's history" : "-",
    },
    {
      capability: "session/delete",
      advertised: yes(sc.delete),
      conch: sc.delete
        ? "conch sessions delete <id> deletes it at the agent too"
        : "conch sessions delete <id> deletes conch's record only",
    },
    {
      capability: "steering",
      advertised: yes(advertisesSteering(init)),
      conch: advertisesSteering(init)
        ? "Ctrl-S sends a message into the running turn (_session/steering)"
        : "Ctrl-S queues the message: it is sent when the turn ends",
    },
    {
      capability: "mcp transports",
      advertised: ["stdio", mcp.http ? "http" : "", mcp.sse ? "sse" : ""].filter(Boolean).join(", "),
      conch: "passes the configured MCP servers of these transports",
    },
    {
      capability: "elicitation",
      advertised: "asked when needed (a client capability)",
      conch: "offers form and url questions; a form shows above the input",
    },
    {
      capability: "prompt content",
      advertised: ["text", prompt.image ? "image" : "", prompt.audio ? "audio" : "", prompt.embeddedContext ? "embedded context" : ""]
        .filter(Boolean)
        .join(", "),
      conch: prompt.image
        ? "text; @files as resource links; images (@file, pasted) as image blocks"
        : "text; @files as resource links (images too: the agent takes none)",
    },
  ];
  const auth = init.authMethods ?? [];
  const plans = auth.map((m) => planAuth(m, { command: "agent", args: [] }));
  rows.push({
    capability: "auth methods",
    advertised: auth.length
      ? auth
          .map(
            (m, i) => `${safeLine(m.id)} (${plans[i].kind === "agent" ? "agent" : plans[i].kind === "env_var" ? "env var" : "terminal"})`,
          )
          .join(", ")
      : "none",
    conch: auth.length ? "offered when session/new asks for a login: terminal logins run in a pane, env vars are named" : "-",
  });
  rows.push({
    capability: "logout",
    advertised: yes(asRecord(caps.auth)?.logout),
    conch: asRecord(caps.auth)?.logout ? "/logout logs out of the agent" : "-",
  });
  rows.push({
    capability: "more directories",
    advertised: yes(sc.additionalDirectories),
    conch: sc.additionalDirectories ? "--add-dir folders go with the session" : "-",
  });
  if (session) {
    const modes = session.modes?.availableModes ?? [];
    rows.push({
      capability: "modes",
      advertised: modes.length
        ? modes.map((m) => (m.id === session.modes?.currentModeId ? `${safeLine(m.id)}*` : safeLine(m.id))).join(", ")
        : "none",
      conch: modes.length ? "Shift+Tab and /mode switch them" : "-",
    });
    const models = readModels(session);
    rows.push({
      capability: "models",
      advertised: models ? modelList(models, profileFor(init.agentInfo).splitModelId) : "none",
      conch: models ? "/model switches them (session/set_model)" : "-",
    });
    const options = session.configOptions ?? [];
    for (const o of options) {
      const backs = o.category === "model" ? " (backs /model)" : o.category === "mode" ? " (backs /mode and Shift+Tab)" : "";
      rows.push({
        capability: `option ${safeLine(o.id)}`,
        advertised: safeLine(optionValues(o)),
        conch: `/config ${safeLine(o.id)} <value>${backs}`,
      });
    }
    if (!options.length) rows.push({ capability: "config options", advertised: "none", conch: "-" });
  }
  if (commands.length)
    rows.push({
      capability: "slash commands",
      advertised: commands.map((c) => `/${safeLine(c.name)}`).join(" "),
      conch: "in the / menu, sent as prompts",
    });
  const extra = Object.keys(asRecord(caps._meta) ?? {});
  if (extra.length) rows.push({ capability: "capability _meta", advertised: extra.map(safeLine).join(", "), conch: "-" });
  return rows;
}
