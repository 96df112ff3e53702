import type { Implementation } from "@agentclientprotocol/sdk";
import type { SessionState } from "../state.js";
import { claudeAgent023Profile, claudeAgentProfile } from "./claude.js";
import { codexProfile } from "./codex.js";
import { codex2Profile } from "./codex2.js";
import { geminiProfile } from "./gemini.js";
import { genericProfile } from "./generic.js";
import { opencodeProfile } from "./opencode.js";
import type { AgentProfile } from "./profile.js";

/** `major.minor` of a version string; missing parts are 0. */
function minorVersion(version: string | undefined): [number, number] {
  const [major, minor] = (version ?? "").split(".").map((p) => Number.parseInt(p, 10));
  return [Number.isFinite(major) ? major : 0, Number.isFinite(minor) ? minor : 0];
}

/** The profile for the agent that answered `initialize` with this `agentInfo`. */
export function profileFor(info: Implementation | null | undefined): AgentProfile {
  const name = info?.name ?? "";
  if (/claude-(agent|code)-acp/.test(name)) {
    const [major, minor] = minorVersion(info?.version);
    return major === 0 && minor < 100 ? claudeAgent023Profile : claudeAgentProfile;
  }
  if (/^codex-acp$|\/codex-acp$/.test(name)) {
    // 0.x is the Rust adapter (`@zed-industries/codex-acp`); 1.x and later the App Server rewrite.
    const [major] = minorVersion(info?.version);
    return major >= 1 ? codex2Profile : codexProfile;
  }
  if (/^gemini-cli$/i.test(name)) return geminiProfile;
  if (/^opencode$/i.test(name)) return opencodeProfile;
  return genericProfile;
}

/** Each `agentInfo`'s profile, read once: the fold asks for every update of a flood. */
const known = new WeakMap<Implementation, AgentProfile>();

/** The profile of the session's agent, from what it said in `initialize`. */
export function profileOf(state: Pick<SessionState, "agent" | "info">): AgentProfile {
  const info = state.agent?.info ?? state.info?.agentInfo;
  if (!info) return genericProfile;
  if (typeof info !== "object") return profileFor(info);
  let profile = known.get(info);
  if (!profile) known.set(info, (profile = profileFor(info)));
  return profile;
}

/** How to name the session's agent in a sentence: its family's name, else what it calls itself. */
export function agentLabel(state: Pick<SessionState, "agent" | "info">): string {
  const profile = profileOf(state);
  if (profile.id !== "generic") return profile.label;
  const info = state.agent?.info ?? state.info?.agentInfo;
  return info?.title || info?.name || state.info?.agentName || profile.label;
}
