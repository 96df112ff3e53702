import { realpath } from "node:fs/promises";
import { readConfined, removeConfined, writeConfined, type Workspace } from "../../acp/confined-write.js";
import { isInside } from "../../paths/is-inside.js";
import { contentHash, PRE_IMAGE_MAX_FILE_BYTES, PRE_IMAGE_MAX_SESSION_BYTES, type PreImageStore } from "../../store/pre-image-store.js";
import type { SessionState } from "../../session/state.js";
import { findTurn, shownPath, turnsWithEdits, unseenWork, type FileEdit, type TurnEdits } from "../../session/turn-edits.js";
import type { FileText, UndoAnswer, UndoFile, UndoOutcome, UndoPlan, UndoSkip } from "../../session/undo-plan.js";

/** Where an undo reads and writes: the session's folder and its undo store. */
export interface UndoIo {
  cwd: string;
  sessionId: string;
  store: PreImageStore;
}

/** Past this, a file's current content is not read to compare (no agent write is that large: undo keeps less). */
export const READ_LIMIT = PRE_IMAGE_MAX_FILE_BYTES * 4;

async function workspace(io: Pick<UndoIo, "cwd">, file: string): Promise<Workspace> {
  return { root: io.cwd, realRoot: await realpath(io.cwd), requested: file };
}

/** Text when the bytes are UTF-8 with no NUL, else only the size: a diff of binary bytes helps nobody. */
export function asText(bytes: Buffer): FileText {
  if (bytes.includes(0)) return { binary: bytes.length };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { binary: bytes.length };
  }
}

/** What the session has to say about a turn conch cannot fully undo. */
function unseenLines(state: SessionState, turnId: string): string[] {
  const work = unseenWork(state, turnId);
  const lines: string[] = [];
  const few = (xs: string[]) =>
    xs
      .slice(0, 3)
      .map((x) => `\`${shownPath(state, x)}\``)
      .join(", ") + (xs.length > 3 ? ` and ${xs.length - 3} more` : "");
  if (work.edits.length)
    lines.push(`the agent's own tools edited ${few(work.edits)}: conch did not see those writes, so undo cannot put them back`);
  if (work.commands.length)
    lines.push(
      `the turn ran ${work.commands.length === 1 ? "a command" : `${work.commands.length} commands`} (${few(work.commands)}): what ${work.commands.length === 1 ? "it" : "they"} changed is not undone`,
    );
  return lines;
}

function listTurns(state: SessionState, turns: TurnEdits[]): string[] {
  return turns
    .slice()
    .reverse()
    .map(
      (t) =>
        `${t.turnId} · ${t.label} · ${t.files.length} file${t.files.length === 1 ? "" : "s"}: ${t.files
          .slice(0, 3)
          .map((f) => shownPath(state, f.path))
          .join(", ")}${t.files.length > 3 ? ", …" : ""}`,
    );
}

/**
 * The turn `/undo` means with no argument: the newest with edits conch can undo, unless a later
 * turn changed files with the agent's own tools (undoing an older turn then would surprise).
 */
function lastTurn(state: SessionState, turns: TurnEdits[]): { turnId: string; blocked?: string } {
  const newest = turns[turns.length - 1];
  const since = state.turns.find((t) => t.id === newest.turnId)?.startedAt;
  const blocked =
    since === undefined ? undefined : state.turns.filter((t) => t.startedAt > since && unseenWork(state, t.id).edits.length > 0).pop();
  return { turnId: newest.turnId, blocked: blocked?.id };
}

/** Checks one file of a turn against the disk: what undo would do to it, or why it leaves it. */
async function planFile(state: SessionState, edit: FileEdit, io: UndoIo): Promise<UndoFile | UndoSkip> {
  const shown = shownPath(state, edit.path);
  const skip = (reason: string): UndoSkip => ({ path: edit.path, shown, reason });
  if (edit.lost) return skip(`its earlier content was not kept: ${edit.lost}`);
  if (!edit.after.sha256) return skip("what the agent wrote is not known");
  // Some agents (opencode) write the file themselves, then hand conch the same content: nothing to go back to.
  if (edit.before?.sha256 === edit.after.sha256)
    return skip(
      "conch saw no change: it already held what the agent sent (an agent that writes files itself first, as opencode does, leaves conch nothing to go back to)",
    );
  if (!isInside(await realpath(io.cwd).catch(() => io.cwd), edit.path)) return skip("it is outside the session's folder");
  let current;
  try {
    current = await readConfined(await workspace(io, shown), edit.path, READ_LIMIT);
  } catch (err) {
    return skip(`it cannot be read (${(err as Error).message})`);
  }
  if (current.kind === "none") return skip(edit.before === null ? "it is gone already" : "it was deleted since the agent wrote it");
  if (current.kind === "too_large" || contentHash(current.bytes) !== edit.after.sha256) {
    return skip(
      edit.laterTurn
        ? `turn ${edit.laterTurn} changed it later: undo that turn first`
        : "it changed since the agent wrote it (by you or another program)",
    );
  }
  const now = asText(current.bytes);
  if (edit.before === null) return { path: edit.path, shown, action: "delete", now, expect: edit.after.sha256 };
  const bytes = edit.before.sha256 ? io.store.get(edit.sessionId ?? io.sessionId, edit.before.sha256) : undefined;
  if (!bytes)
    return skip(
      `its earlier content is no longer kept (undo keeps the newest ${PRE_IMAGE_MAX_SESSION_BYTES / (1024 * 1024)} MiB of each session)`,
    );
  return { path: edit.path, shown, action: "restore", now, restored: asText(bytes), bytes, expect: edit.after.sha256 };
}

/**
 * What `/undo [ref]` would do: the turn's files checked against the disk, each to be put back or
 * left with a reason, plus what the turn did that conch did not see. With no `ref`, the newest turn
 * with edits; `list` or a ref that names no such turn lists the turns that have some.
 */
export async function planUndo(state: SessionState, ref: string, io: UndoIo): Promise<UndoAnswer> {
  const turns = turnsWithEdits(state);
  const wanted = ref.trim();
  if (turns.length === 0) {
    const last = [...state.turns].reverse().find((t) => unseenWork(state, t.id).edits.length > 0);
    return {
      kind: "message",
      lines: [
        "no turn has edits that conch can undo: undo covers the files an agent writes through conch (fs/write_text_file)",
        ...(last ? unseenLines(state, last.id) : []),
      ],
    };
  }
  let turnId: string | undefined;
  if (!wanted) {
    const last = lastTurn(state, turns);
    if (last.blocked) {
      return {
        kind: "message",
        lines: [
          `the last turn that changed files (${last.blocked}) did it with the agent's own tools, which conch cannot undo`,
          ...unseenLines(state, last.blocked),
          "",
          "turns conch can undo (/undo <turn>):",
          ...listTurns(state, turns),
        ],
      };
    }
    turnId = last.turnId;
  } else if (wanted !== "list") {
    const found = findTurn(state, wanted);
    turnId = turns.find((t) => t.turnId === found)?.turnId;
    if (!turnId) {
      return {
        kind: "message",
        error: true,
        lines: [`no turn "${wanted}" with edits conch can undo; these have some (/undo <turn>):`, ...listTurns(state, turns)],
      };
    }
  }
  if (!turnId) return { kind: "message", lines: ["turns with edits conch can undo (/undo <turn>):", ...listTurns(state, turns)] };
  const turn = turns.find((t) => t.turnId === turnId)!;
  const files: UndoFile[] = [];
  const skipped: UndoSkip[] = [];
  for (const edit of turn.files) {
    const planned = await planFile(state, edit, io);
    if ("action" in planned) files.push(planned);
    else skipped.push(planned);
  }
  return { kind: "plan", plan: { turnId, label: turn.label, files, skipped, unseen: unseenLines(state, turnId) } };
}

/**
 * Puts the plan's files back: each is checked again first (a file changed while the person was
 * deciding is left, and said so), then rewritten atomically or deleted, confined to the session's
 * folder as the agent's own writes are.
 */
export async function applyUndo(plan: UndoPlan, io: Pick<UndoIo, "cwd">): Promise<UndoOutcome> {
  const out: UndoOutcome = { restored: [], deleted: [], skipped: [...plan.skipped] };
  for (const file of plan.files) {
    const ws = await workspace(io, file.shown);
    try {
      const current = await readConfined(ws, file.path, READ_LIMIT);
      const same = file.expect === null ? current.kind === "none" : current.kind === "file" && contentHash(current.bytes) === file.expect;
      if (!same) {
        out.skipped.push({ path: file.path, shown: file.shown, reason: "it changed while the undo waited for you" });
        continue;
      }
      if (file.action === "delete") {
        await removeConfined(ws, file.path);
        out.deleted.push(file.path);
      } else {
        await writeConfined(ws, file.path, file.bytes!);
        out.restored.push(file.path);
      }
    } catch (err) {
      out.skipped.push({
        path: file.path,
        shown: file.shown,
        reason: `it could not be ${file.action === "delete" ? "deleted" : "written"} (${(err as Error).message})`,
      });
    }
  }
  return out;
}
