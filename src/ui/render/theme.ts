import type { ToolKind } from "@agentclientprotocol/sdk";
import type { ToolDisplayStatus } from "../../session/state.js";

/** What a colour is for; components ask for a role, never for a literal colour. */
export type ColorRole =
  | "accent"
  | "user"
  | "success"
  | "error"
  | "warning"
  | "info"
  | "muted"
  | "added"
  | "removed"
  | "hunk"
  | "link"
  | "code"
  | "heading"
  | "border"
  | "focus";

const ROLE_COLORS: Record<ColorRole, string> = {
  accent: "cyan",
  user: "blue",
  success: "green",
  error: "red",
  warning: "yellow",
  info: "blue",
  muted: "gray",
  added: "green",
  removed: "red",
  hunk: "cyan",
  link: "blue",
  code: "yellow",
  heading: "magenta",
  border: "gray",
  focus: "cyan",
};

/** `NO_COLOR`'s answer while `withColorsRead` runs. */
let readOnce: boolean | undefined;

/**
 * True unless `NO_COLOR` is set to a non-empty value (https://no-color.org). Read on every call,
 * not once at import, so a test or the CLI can switch it at runtime.
 */
export function colorsEnabled(): boolean {
  if (readOnce !== undefined) return readOnce;
  const v = process.env.NO_COLOR;
  return v === undefined || v === "";
}

/**
 * Runs `draw` with `NO_COLOR` read once: drawing an item asks for every styled span, and each read
 * of the environment goes through Node's native getter (tens of ms over a long transcript). The
 * environment cannot change within one synchronous draw.
 */
export function withColorsRead<T>(draw: () => T): T {
  if (readOnce !== undefined) return draw();
  readOnce = colorsEnabled();
  try {
    return draw();
  } finally {
    readOnce = undefined;
  }
}

/** The Ink colour for a role, or undefined when colours are off (bold/dim still apply). */
export function color(role: ColorRole): string | undefined {
  return colorsEnabled() ? ROLE_COLORS[role] : undefined;
}

/** A role's colour whether or not colours are on: for a caller that has asked `colorsEnabled()` already. */
export function roleColor(role: ColorRole): string {
  return ROLE_COLORS[role];
}

/** One glyph per tool kind, single-cell wide so cards line up. */
export const KIND_ICONS: Record<ToolKind, string> = {
  read: "◎",
  edit: "✎",
  delete: "⌫",
  move: "⇄",
  search: "⌕",
  execute: "$",
  think: "◌",
  fetch: "⇣",
  switch_mode: "⇋",
  other: "•",
};

/** How each status looks: its glyph, its word (empty where the glyph says enough) and its colour. */
export const STATUS_LOOK: Record<ToolDisplayStatus, { icon: string; word: string; role: ColorRole }> = {
  pending: { icon: "○", word: "pending", role: "muted" },
  in_progress: { icon: "◐", word: "running", role: "accent" },
  completed: { icon: "✓", word: "", role: "success" },
  failed: { icon: "✗", word: "failed", role: "error" },
  cancelled: { icon: "⊘", word: "cancelled", role: "warning" },
  rejected: { icon: "⊘", word: "rejected", role: "error" },
  stalled: { icon: "…", word: "stalled", role: "warning" },
  unknown: { icon: "?", word: "unknown", role: "muted" },
  interrupted: { icon: "⊘", word: "interrupted", role: "warning" },
  ended_with_agent: { icon: "⊘", word: "ended with the agent (no exit status)", role: "muted" },
  background: { icon: "◐", word: "running in the agent's session", role: "accent" },
  ended: { icon: "■", word: "ended, exit not reported", role: "muted" },
};

/** Frames of the running spinner. */
export const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Plan checklist glyphs. */
export const PLAN_ICONS = { pending: "☐", in_progress: "◐", completed: "☑" } as const;

/** Prompt marker for user messages. */
export const USER_PROMPT = "›";

/** The end of a turn the person interrupted (Esc): an answer cut off there must not look finished. */
export const INTERRUPTED_MARK = "⊘ interrupted";
/** Under a prompt the agent answered with nothing at all. */
export const NO_REPLY_MARK = "(the agent ended the turn without a reply)";
