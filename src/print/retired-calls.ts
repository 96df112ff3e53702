import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { PassedCall } from "../session/retire-calls.js";
import { displayStatus, type ToolCallView, type ToolDisplayStatus } from "../session/state.js";

/** One call's line in the result of a print run. */
export interface ResultCall {
  id: string;
  title: string;
  kind: string | null;
  status: ToolDisplayStatus;
  durationMs: number | null;
}

/** A call as the result lists it. */
export function resultCall(t: ToolCallView): ResultCall {
  return {
    id: t.toolCallId,
    title: t.title,
    kind: t.kind ?? null,
    status: displayStatus(t),
    durationMs: t.endedAt !== undefined ? t.endedAt - t.startedAt : null,
  };
}

/** How much of the spool is read back at a time. */
const READ_BYTES = 1 << 20;
const NEWLINE = 0x0a;

/**
 * The result lines of the calls a print run's retirement passed (`Orchestrator.retireCalls`), in
 * order, spooled to a file that is unlinked as soon as it is open (nothing is left behind, even by a
 * crash): a run of 400,000 calls holds none of them in memory, and reads them back a megabyte at a
 * time as the result is written. Lines the file cannot take (a full disk) are kept in memory
 * instead, after those it holds. Each line is a call's compact JSON, which holds no raw newline.
 */
export class RetiredCalls {
  private fd?: number;
  /** Set when the file could not be unlinked at once (Windows): removed on `close`. */
  private path?: string;
  /** Bytes of whole lines in the file. */
  private written = 0;
  private spoolFailed = false;
  /** Lines (each batch one string) the file could not take. */
  private readonly held: string[] = [];
  /** Lines kept: every passed call of the run. */
  count = 0;
  /** Of them, calls kept in the state: they come first among its calls (after index-like ids). */
  kept = 0;

  constructor(private readonly dir: string = tmpdir()) {}

  /**
   * Keeps the lines of the passed calls that `ours` says belong to the run, in order: a call that
   * left the state as its result line, a call kept in the state as its id, read from the state at the end.
   */
  add(passed: readonly PassedCall[], ours: (turnId: string) => boolean): void {
    const lines: string[] = [];
    for (const { call, kept } of passed) {
      if (!ours(call.turnId)) continue;
      lines.push(JSON.stringify(kept ? call.toolCallId : resultCall(call)));
      if (kept) this.kept++;
    }
    if (lines.length === 0) return;
    this.count += lines.length;
    const text = `${lines.join("\n")}\n`;
    if (!this.spool(text)) this.held.push(text);
  }

  /** The calls' lines in order, each read back as it is asked for; `state`: the calls still in the state, by id. */
  *calls(state: Readonly<Record<string, ToolCallView>>): Generator<ResultCall> {
    for (const line of this.lines()) {
      if (!line.startsWith('"')) yield JSON.parse(line) as ResultCall;
      else {
        const call = state[JSON.parse(line) as string];
        if (call) yield resultCall(call);
      }
    }
  }

  /** The spooled lines, then those held in memory. */
  private *lines(): Generator<string> {
    if (this.fd !== undefined) {
      const buf = Buffer.allocUnsafe(READ_BYTES);
      let rest: Buffer = Buffer.alloc(0);
      for (let pos = 0; pos < this.written;) {
        const n = readSync(this.fd, buf, 0, Math.min(READ_BYTES, this.written - pos), pos);
        if (n <= 0) throw new Error("the spool of finished calls ended early");
        pos += n;
        const chunk = rest.length ? Buffer.concat([rest, buf.subarray(0, n)]) : buf.subarray(0, n);
        let from = 0;
        for (let nl = chunk.indexOf(NEWLINE); nl >= 0; nl = chunk.indexOf(NEWLINE, from)) {
          yield chunk.toString("utf8", from, nl);
          from = nl + 1;
        }
        // Copied: the next read reuses `buf`.
        rest = Buffer.from(chunk.subarray(from));
      }
    }
    for (const text of this.held) yield* text.slice(0, -1).split("\n");
  }

  /** Closes the spool (and removes it, where it could not be unlinked while open). */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (this.path) rmSync(dirname(this.path), { recursive: true, force: true });
    this.path = undefined;
  }

  /** Appends `text` to the spool; false when the file cannot take it (no file, a full disk). */
  private spool(text: string): boolean {
    if (this.spoolFailed || this.held.length > 0) return false;
    try {
      if (this.fd === undefined) this.open();
      const bytes = Buffer.from(text);
      for (let off = 0; off < bytes.length;) off += writeSync(this.fd!, bytes, off, bytes.length - off, this.written + off);
      this.written += bytes.length;
      return true;
    } catch {
      // What was written of this text lies past `written`: it is never read.
      this.spoolFailed = true;
      return false;
    }
  }

  private open(): void {
    const dir = mkdtempSync(join(this.dir, "conch-calls-"));
    const path = join(dir, "calls.jsonl");
    this.fd = openSync(path, "w+", 0o600);
    try {
      unlinkSync(path);
      rmdirSync(dir);
    } catch {
      this.path = path;
    }
  }
}
