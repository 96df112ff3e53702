// What `/undo` shows and does, as plain data: the orchestrator's undo room (orchestrator/undo/)
// makes and applies it, the UI shows it and asks. Types only, so the UI reads them from here, not
// from the room that touches the disk.

/** One file an undo will put back: rewritten with its earlier content, or deleted (the turn created it). */
export interface UndoFile {
  path: string;
  /** The path as a person reads it (relative to the session's folder). */
  shown: string;
  action: "restore" | "delete";
  /** What the file holds now (what the agent wrote), and what it will hold: for the diff. */
  now: FileText;
  restored?: FileText;
  /** The bytes to write back; absent for a delete. */
  bytes?: Buffer;
  /** The sha256 the file must still have when the undo is applied (what the turn left); null: it must still be absent. */
  expect: string | null;
}

/** A file's content for a diff: its text, or only its size when it is not text. */
export type FileText = { text: string } | { binary: number };

/** A file an undo leaves as it is, and why (for a person). */
export interface UndoSkip {
  path: string;
  shown: string;
  reason: string;
}

/** What `/undo` would do for one turn: the person sees it, then confirms or not. */
export interface UndoPlan {
  turnId: string;
  label: string;
  files: UndoFile[];
  skipped: UndoSkip[];
  /** What the turn did that conch did not see written (commands, the agent's own file tools). */
  unseen: string[];
  /** `/redo`: the plan applies the turn's changes again. */
  redo?: boolean;
}

/** The answer to `/undo [turn]`: a plan to confirm, or words for the person (nothing to do, a list to choose from). */
export type UndoAnswer = { kind: "plan"; plan: UndoPlan } | { kind: "message"; lines: string[]; error?: boolean };

/** What applying a plan did. */
export interface UndoOutcome {
  restored: string[];
  deleted: string[];
  skipped: UndoSkip[];
}
