import type { FileVersion, SessionEvent } from "./events.js";
import type { SessionState } from "./state.js";

/** One file a turn wrote, as `/undo` sees it: the content before the turn's first write and after its last. */
export interface FileEdit {
  path: string;
  before: FileVersion | null;
  after: FileVersion;
  /** Why the content before was not kept, when it was not. */
  lost?: string;
  /** A later turn wrote the file too (and has not been undone): undo that one first. */
  laterTurn?: string;
  /** The session whose undo store keeps the content before. */
  sessionId?: string;
}

/** A turn with files `/undo` can still put back. */
export interface TurnEdits {
  turnId: string;
  label: string;
  /** When its last write happened (event clock). */
  at: number;
  files: FileEdit[];
}

/** What a turn did that conch did not see written, so `/undo` cannot put it back. */
export interface UnseenWork {
  /** Commands it ran (their effects on files are unknown). */
  commands: string[];
  /** Files (or, with no path given, tool titles) its own tools edited, deleted or moved. */
  edits: string[];
}

/** The label of a turn for a person: its prompt on one line, shortened. */
export function turnLabel(state: SessionState, turnId: string): string {
  const turn = state.turns.find((t) => t.id === turnId);
  if (turn?.origin === "agent") return "the agent's own turn";
  const prompt = state.items.find((i) => i.kind === "user" && i.turnId === turnId && !i.steered);
  const text = prompt && "text" in prompt ? prompt.text.replace(/\s+/g, " ").trim() : "";
  if (!text) return turnId;
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/**
 * The turns whose writes `/undo` can still put back, oldest first. Each file appears once per turn:
 * the content before the turn's first write to it, and after its last. Files already put back are
 * left out, and so are turns with none left.
 */
export function turnsWithEdits(state: SessionState): TurnEdits[] {
  const writes = state.writes ?? [];
  const undone = state.undone ?? {};
  const turns = new Map<string, TurnEdits & { byPath: Map<string, FileEdit> }>();
  writes.forEach((w, i) => {
    if (undone[w.turnId]?.includes(w.path)) return;
    let turn = turns.get(w.turnId);
    if (!turn) {
      turn = { turnId: w.turnId, label: w.label, at: w.at, files: [], byPath: new Map() };
      turns.set(w.turnId, turn);
    }
    turn.at = w.at;
    const known = turn.byPath.get(w.path);
    if (known) {
      known.after = w.after;
    } else {
      const edit: FileEdit = {
        path: w.path,
        before: w.before,
        after: w.after,
        sessionId: w.sessionId,
        ...(w.lost ? { lost: w.lost } : {}),
      };
      turn.byPath.set(w.path, edit);
      turn.files.push(edit);
    }
    // Any later write of this path by another turn that still stands.
    const later = writes.slice(i + 1).find((o) => o.path === w.path && o.turnId !== w.turnId && !undone[o.turnId]?.includes(o.path));
    const edit = turn.byPath.get(w.path)!;
    if (later) edit.laterTurn = later.turnId;
    else delete edit.laterTurn;
  });
  return [...turns.values()].filter((t) => t.files.length > 0).map(({ byPath: _byPath, ...t }) => t);
}

/** Paths a tool call names: its locations and the files of its diffs. */
function toolPaths(tool: SessionState["toolCalls"][string]): string[] {
  const paths = tool.locations.map((l) => l.path);
  for (const c of tool.content) if (c.type === "diff" && !paths.includes(c.path)) paths.push(c.path);
  return paths;
}

/**
 * What turn `turnId` did that conch did not see written: commands it ran, and files its tools
 * edited, deleted or moved with no `fs/write_text_file` for them (agents such as claude-agent-acp and
 * codex-acp write files themselves). Calls that were rejected or cancelled changed nothing.
 */
export function unseenWork(state: SessionState, turnId: string): UnseenWork {
  const written = new Set((state.writes ?? []).filter((w) => w.turnId === turnId).map((w) => w.path));
  const out: UnseenWork = { commands: [], edits: [] };
  for (const tool of Object.values(state.toolCalls)) {
    if (tool.turnId !== turnId || tool.localStatus === "rejected" || tool.localStatus === "cancelled") continue;
    if (tool.kind === "execute") out.commands.push(tool.title || tool.toolCallId);
    else if (tool.kind === "edit" || tool.kind === "delete" || tool.kind === "move") {
      const paths = toolPaths(tool);
      if (paths.length === 0) out.edits.push(tool.title || tool.toolCallId);
      for (const p of paths) if (!written.has(p) && !out.edits.includes(p)) out.edits.push(p);
    }
  }
  return out;
}

/** The turn a person means by `ref`: "3" or "t3" for the third prompt, or a turn id as listed. */
export function findTurn(state: SessionState, ref: string): string | undefined {
  const r = ref.trim();
  const ids = new Set([...state.turns.map((t) => t.id), ...(state.writes ?? []).map((w) => w.turnId)]);
  if (ids.has(r)) return r;
  if (/^\d+$/.test(r) && ids.has(`t${r}`)) return `t${r}`;
  return undefined;
}

/** `path` relative to the session's folder, when it is inside it. */
export function shownPath(state: SessionState, path: string): string {
  const cwd = state.info?.cwd ?? state.localCwd;
  if (!cwd) return path;
  const base = cwd.endsWith("/") ? cwd : `${cwd}/`;
  return path.startsWith(base) ? path.slice(base.length) : path;
}

/** The transcript's line for an undo: what was put back, and what was left and why. */
export function describeUndo(
  state: SessionState,
  ev: Extract<SessionEvent, { type: "edits_undone" | "edits_redone" }>,
  what: "undo" | "redo" = "undo",
): string {
  const list = (paths: string[]) => paths.map((p) => shownPath(state, p)).join(", ");
  const parts: string[] = [];
  if (ev.restored.length) parts.push(`${what === "redo" ? "wrote again" : "put back"} ${list(ev.restored)}`);
  if (ev.deleted.length)
    parts.push(
      `deleted ${list(ev.deleted)} (the turn ${what === "redo" ? "deleted" : "created"} ${ev.deleted.length === 1 ? "it" : "them"})`,
    );
  if (ev.skipped.length) parts.push(`left ${ev.skipped.map((s) => `${shownPath(state, s.path)} (${s.reason})`).join(", ")}`);
  const label =
    state.writes?.find((w) => w.turnId === ev.turnId)?.label ??
    state.checkpoints?.find((c) => c.turnId === ev.turnId)?.label ??
    turnLabel(state, ev.turnId);
  return `${what} of turn ${ev.turnId} (${label}): ${parts.join("; ") || "nothing to do"}`;
}
