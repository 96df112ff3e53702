import type { PassedCall } from "../session/retire-calls.js";
import type { ToolCallView } from "../session/state.js";
import { callRecord, recordHead, recordId, restoredCall, resultCall, resultLineOf } from "./call-record.js";
import { LineSpool } from "./line-spool.js";

export { resultCall, type ResultCall } from "./call-record.js";

/**
 * The calls a print run's retirement passed (`Orchestrator.retireCalls`), in order, spooled
 * (`LineSpool`): a run of 400,000 calls holds none of them in memory, and reads them back a
 * megabyte at a time as the result is written. A call that left the state is its record
 * (`callRecord`): its result line, and what puts it back as it was when the agent names it again.
 */
export class RetiredCalls {
  private readonly spool: LineSpool;
  /** Lines kept: every passed call of the run. */
  count = 0;
  /** Of them, calls kept in the state: they come first among its calls (after index-like ids). */
  kept = 0;
  /**
   * Calls an event brought back into the state, listed where their first line is: by id, their last
   * record once they left the state again, or undefined while the state has them.
   */
  private readonly restored = new Map<string, string | undefined>();

  constructor(dir?: string) {
    this.spool = new LineSpool(dir);
  }

  /**
   * Keeps the lines of the passed calls, in order: a call that left the state as its record, a call
   * kept in the state as its id, read from the state at the end. Only the run's calls pass
   * (`RetiredCallStore.owns`).
   */
  add(passed: readonly PassedCall[]): void {
    const lines: string[] = [];
    for (const { call, kept } of passed) {
      if (this.restored.has(call.toolCallId)) {
        // Listed where its first line is: only its last state is kept.
        if (!kept) this.restored.set(call.toolCallId, callRecord(call));
        continue;
      }
      lines.push(kept ? JSON.stringify(call.toolCallId) : callRecord(call));
      if (kept) this.kept++;
    }
    if (lines.length === 0) return;
    this.count += lines.length;
    this.spool.append(`${lines.join("\n")}\n`);
  }

  /**
   * The calls of `ids` that left the state, as they were (in their turn, with their content), to
   * put back into it at time `at` before an event that names them is applied; ids not found are
   * calls it never held. One read of the spool for all of them.
   */
  recall(ids: readonly string[], at: number): ToolCallView[] {
    const found: ToolCallView[] = [];
    const wanted = new Map<string, string>();
    for (const id of ids) {
      const last = this.restored.get(id);
      if (last) {
        found.push(restoredCall(last, at));
        this.restored.set(id, undefined);
      } else if (!this.restored.has(id)) wanted.set(id, recordHead(id));
    }
    for (const piece of wanted.size ? this.spool.pieces() : []) {
      for (const [id, head] of wanted) {
        const line = LineSpool.lineIn(piece, head);
        if (line === undefined) continue;
        found.push(restoredCall(line, at));
        this.restored.set(id, undefined);
        wanted.delete(id);
      }
      if (wanted.size === 0) break;
    }
    return found;
  }

  /** Whether an event brought the call back: its line is where it was first passed. */
  isRestored(id: string): boolean {
    return this.restored.has(id);
  }

  /**
   * The calls' result lines (compact JSON) in order, each read back as it is asked for, a spooled
   * one as it was written; `state`: the calls still in the state, by id.
   */
  *resultLines(state: Readonly<Record<string, ToolCallView>>): Generator<string> {
    for (const line of this.spool.lines()) {
      if (line.startsWith('"')) {
        const call = state[JSON.parse(line) as string];
        if (call) yield JSON.stringify(resultCall(call));
        continue;
      }
      if (this.restored.size > 0) {
        const id = recordId(line);
        if (this.restored.has(id)) {
          const last = this.restored.get(id);
          if (last) yield resultLineOf(last);
          else if (state[id]) yield JSON.stringify(resultCall(state[id]));
          continue;
        }
      }
      yield resultLineOf(line);
    }
  }

  /** Closes the spool. */
  close(): void {
    this.spool.close();
  }
}
