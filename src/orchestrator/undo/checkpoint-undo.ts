import { realpath } from "node:fs/promises";
import path from "node:path";
import { readConfined } from "../../acp/confined-write.js";
import { findTurn } from "../../session/turn-edits.js";
import type { CheckpointMark, SessionState } from "../../session/state.js";
import { blobId, CHECKPOINT_LIMITS, type TreeChange, type WorkspaceCheckpoints } from "../../store/checkpoint-store.js";
import { contentHash } from "../../store/pre-image-store.js";
import type { UndoAnswer, UndoFile, UndoSkip } from "../../session/undo-plan.js";
import { asText, READ_LIMIT } from "./turn-undo.js";

/** A turn as its checkpoints see it: the workspace before its prompt, and after its last call (or its end). */
export interface TurnSpan {
  turnId: string;
  label: string;
  from: CheckpointMark;
  to: CheckpointMark;
}

/** Where an undo from checkpoints reads: the session's folder and its workspace's checkpoints. */
export interface CheckpointIo {
  cwd: string;
  checkpoints: WorkspaceCheckpoints;
}

/** The turns that have a checkpoint at their start and one after it, oldest first. */
export function turnSpans(state: SessionState): TurnSpan[] {
  const marks = state.checkpoints ?? [];
  const spans: TurnSpan[] = [];
  marks.forEach((from, i) => {
    if (from.stage !== "start") return;
    const to = marks
      .slice(i + 1)
      .filter((m) => m.turnId === from.turnId && m.stage !== "start")
      .pop();
    if (to) spans.push({ turnId: from.turnId, label: from.label, from, to });
  });
  return spans;
}

const MIB = 1024 * 1024;
const SYMLINK = "120000";

/** A span's changes, less what was undone already (undo) or only that (redo). */
async function spanChanges(span: TurnSpan, state: SessionState, io: CheckpointIo, redo: boolean): Promise<TreeChange[]> {
  const undone = new Set(state.undone?.[span.turnId] ?? []);
  const all = await io.checkpoints.changes(span.from.tree, span.to.tree);
  return all.filter((c) => undone.has(path.join(io.cwd, c.path)) === redo);
}

function listSpans(spans: { span: TurnSpan; changes: TreeChange[] }[]): string[] {
  return spans
    .slice()
    .reverse()
    .map(
      ({ span, changes }) =>
        `${span.turnId} · ${span.label} · ${changes.length} file${changes.length === 1 ? "" : "s"}: ${changes
          .slice(0, 3)
          .map((c) => c.path)
          .join(", ")}${changes.length > 3 ? ", …" : ""}`,
    );
}

/**
 * What `/undo [ref]` (or `/redo`) would do from the workspace's checkpoints: the files the turn
 * changed, whoever changed them (the agent's own tools, a command, a write through conch), each
 * checked against the disk. Undefined when the session has no checkpointed turn (the caller then
 * undoes from what conch saw written).
 */
export async function planCheckpointUndo(
  state: SessionState,
  ref: string,
  io: CheckpointIo,
  redo = false,
): Promise<UndoAnswer | undefined> {
  const spans = turnSpans(state);
  if (spans.length === 0) return undefined;
  const wanted = ref.trim();
  const verb = redo ? "redo" : "undo";
  let chosen: { span: TurnSpan; changes: TreeChange[] } | undefined;
  try {
    if (wanted && wanted !== "list") {
      const id = findTurn(state, wanted);
      const span = spans.find((s) => s.turnId === id);
      if (!span) return undefined;
      chosen = { span, changes: await spanChanges(span, state, io, redo) };
    } else {
      const found: { span: TurnSpan; changes: TreeChange[] }[] = [];
      // The newest first; a listing looks at the last 20 turns.
      for (const span of spans.slice(-20).reverse()) {
        const changes = await spanChanges(span, state, io, redo);
        if (changes.length) found.unshift({ span, changes });
        if (!wanted && found.length) break;
      }
      if (found.length === 0)
        return {
          kind: "message",
          lines: [redo ? "nothing to redo: no turn's undo is left to apply again" : "no turn changed files that undo can put back"],
        };
      if (wanted === "list") return { kind: "message", lines: [`turns with changes to ${verb} (/${verb} <turn>):`, ...listSpans(found)] };
      chosen = found[found.length - 1];
    }
  } catch (err) {
    return gone(chosen?.span ?? spans[spans.length - 1], io, err);
  }
  const { span, changes } = chosen;
  if (!(await io.checkpoints.has(span.from.tree)) || !(await io.checkpoints.has(span.to.tree))) return gone(span, io);
  if (changes.length === 0) return { kind: "message", lines: [`turn ${span.turnId} has nothing to ${verb}`] };
  const later = spans.filter((s) => s.from.at > span.to.at);
  const files: UndoFile[] = [];
  const skipped: UndoSkip[] = [];
  const targets = await io.checkpoints.blobs(
    changes.flatMap((c) => ((redo ? c.after : c.before) ? [(redo ? c.after : c.before)!.blob] : [])),
  );
  const root = await realpath(io.cwd).catch(() => io.cwd);
  for (const c of changes) {
    const abs = path.join(io.cwd, c.path);
    const skip = (reason: string) => skipped.push({ path: abs, shown: c.path, reason });
    if (span.from.skipped.includes(c.path) || span.to.skipped.includes(c.path)) {
      skip(`it was larger than checkpoints keep (${CHECKPOINT_LIMITS.fileBytes / MIB} MiB) or a repository of its own`);
      continue;
    }
    const expected = redo ? c.before : c.after;
    const target = redo ? c.after : c.before;
    if (expected?.mode === SYMLINK || target?.mode === SYMLINK) {
      skip("it is a symbolic link, which undo leaves as it is");
      continue;
    }
    let current;
    try {
      current = await readConfined({ root: io.cwd, realRoot: root, requested: c.path }, abs, READ_LIMIT);
    } catch (err) {
      skip(`it cannot be read (${(err as Error).message})`);
      continue;
    }
    const now = current.kind === "file" ? blobId(current.bytes) : current.kind === "none" ? undefined : "too large";
    if (now !== expected?.blob) {
      const by = later.find((s) => s.from.at > span.to.at && s.turnId !== span.turnId);
      skip(
        by
          ? `it changed after the turn (turn ${by.turnId} or you): undo the later turns first`
          : "it changed since the turn (by you or another program)",
      );
      continue;
    }
    const nowText = current.kind === "file" ? asText(current.bytes) : { text: "" };
    const expect = current.kind === "file" ? contentHash(current.bytes) : null;
    if (!target) {
      files.push({ path: abs, shown: c.path, action: "delete", now: nowText, expect });
      continue;
    }
    const bytes = targets.get(target.blob);
    if (!bytes) {
      skip("its content is no longer in the checkpoints");
      continue;
    }
    files.push({ path: abs, shown: c.path, action: "restore", now: nowText, restored: asText(bytes), bytes, expect });
  }
  return { kind: "plan", plan: { turnId: span.turnId, label: span.label, files, skipped, unseen: [], ...(redo ? { redo: true } : {}) } };
}

function gone(span: TurnSpan, io: CheckpointIo, err?: unknown): UndoAnswer {
  return {
    kind: "message",
    error: true,
    lines: [
      `the checkpoints of turn ${span.turnId} are gone from ${io.checkpoints.dir}${err ? ` (${(err as Error).message.split("\n")[0]})` : " (the folder was deleted?)"}: undo cannot put its files back`,
      "conch records new checkpoints from the next turn on",
    ],
  };
}
