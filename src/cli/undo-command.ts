import { createTwoFilesPatch } from "diff";
import { EXIT, exitCodeOf, messageOf } from "../errors/conch-error.js";
import { realPathOf } from "../orchestrator/rules/call-facts.js";
import { applyUndo, planUndo } from "../orchestrator/undo/turn-undo.js";
import type { FileText, UndoAnswer, UndoPlan } from "../session/undo-plan.js";
import { planCheckpointUndo } from "../orchestrator/undo/checkpoint-undo.js";
import type { SessionEvent } from "../session/events.js";
import { closeInterruptedRuns } from "../session/interrupted-runs.js";
import { foldEvents } from "../session/reduce.js";
import { describeUndo } from "../session/turn-edits.js";
import { WorkspaceCheckpoints } from "../store/checkpoint-store.js";
import { PreImageStore } from "../store/pre-image-store.js";
import { acquireSessionLock } from "../store/session-lock.js";
import { readSessionLog, SessionLogWriter } from "../store/session-log.js";
import { resolveStateDir, sessionLogPath } from "../store/state-dir.js";
import { safeLine, safeText } from "../text/terminal-safe.js";
import type { Command } from "./parse-args.js";
import { findStoredSession, SessionBusyError } from "./session-setup.js";

const text = (t: FileText | undefined) => (t && "text" in t ? t.text : undefined);

/** A plan as a person reads it in a terminal: what each file will become, as a unified diff. */
function describePlan(plan: UndoPlan, diffs: boolean): string[] {
  const lines = [`${plan.redo ? "redo" : "undo"} of turn ${plan.turnId} (${safeLine(plan.label)}):`];
  for (const f of plan.files) {
    lines.push(`  ${f.action === "delete" ? "delete" : "put back"} ${safeLine(f.shown)}`);
    const now = text(f.now);
    const then = f.action === "delete" ? "" : text(f.restored);
    if (diffs && now !== undefined && then !== undefined)
      lines.push(
        safeText(createTwoFilesPatch(f.shown, f.shown, now, then, "now", f.action === "delete" ? "deleted" : "put back")).trimEnd(),
      );
  }
  for (const s of plan.skipped) lines.push(`  leave ${safeLine(s.shown)}: ${safeLine(s.reason)}`);
  for (const u of plan.unseen) lines.push(`  ! ${safeLine(u)}`);
  return lines;
}

/**
 * `conch undo <id> [turn] [--dry-run]`: puts back what a stored session's turn changed (a print
 * run's, typically), from the workspace's checkpoints or conch's own undo store, with the same
 * checks as `/undo`; the undo is appended to the session's log.
 */
export async function runUndoCommand(cmd: Extract<Command, { kind: "undo" }>): Promise<number> {
  const root = resolveStateDir();
  let release: (() => void) | undefined;
  try {
    const rec = await findStoredSession(cmd.id);
    const lock = acquireSessionLock(rec.id, root);
    if (!lock.ok) throw new SessionBusyError(`session ${rec.id} is open in another conch (pid ${lock.heldByPid ?? "?"}): use /undo there`);
    release = lock.release;
    const state = foldEvents(closeInterruptedRuns(readSessionLog<SessionEvent>(sessionLogPath(rec.id, root)).events));
    const cwd = rec.cwd;
    const checkpoints = new WorkspaceCheckpoints(realPathOf(cwd), root);
    const ref = cmd.turn ?? "";
    const answer: UndoAnswer =
      (await planCheckpointUndo(state, ref, { cwd, checkpoints })) ??
      (await planUndo(state, ref, { cwd, sessionId: rec.id, store: new PreImageStore(root) }));
    if (answer.kind === "message") {
      (answer.error ? process.stderr : process.stdout).write(`${answer.lines.map(safeLine).join("\n")}\n`);
      return answer.error ? EXIT.failed : EXIT.ok;
    }
    const { plan } = answer;
    process.stdout.write(`${describePlan(plan, cmd.dryRun).join("\n")}\n`);
    if (cmd.dryRun || plan.files.length === 0) return plan.skipped.length && !cmd.dryRun ? EXIT.failed : EXIT.ok;
    const out = await applyUndo(plan, { cwd });
    const ev: SessionEvent = {
      type: "edits_undone",
      at: Date.now(),
      turnId: plan.turnId,
      restored: out.restored,
      deleted: out.deleted,
      skipped: out.skipped.map((s) => ({ path: s.path, reason: s.reason })),
    };
    const log = SessionLogWriter.open<SessionEvent>(sessionLogPath(rec.id, root));
    log.append(ev);
    log.sync();
    log.close();
    process.stdout.write(`${safeLine(describeUndo(state, ev))}\n`);
    return out.skipped.length ? EXIT.failed : EXIT.ok;
  } catch (err) {
    process.stderr.write(`conch: ${messageOf(err)}\n`);
    return exitCodeOf(err);
  } finally {
    release?.();
  }
}
