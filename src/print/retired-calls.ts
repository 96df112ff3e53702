import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ToolCallStatus } from "@agentclientprotocol/sdk";
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

/**
 * A call that left the state as its line says it was, to put back for a late update: what the
 * line does not keep (its content, raw input and output) the update replaces or leaves empty, and
 * no print output reads it once the call is final.
 */
function restoredCall(c: ResultCall, turnId: string, at: number): ToolCallView {
  return {
    toolCallId: c.id,
    turnId,
    title: c.title,
    kind: (c.kind ?? undefined) as ToolCallView["kind"],
    status: c.status as ToolCallStatus,
    content: [],
    locations: [],
    rawInput: undefined,
    rawOutput: undefined,
    meta: {},
    history: false,
    lastSeq: 0,
    lastAt: at,
    startedAt: at - (c.durationMs ?? 0),
    localStatus: undefined,
    endedAt: c.durationMs === null ? undefined : at,
    detached: undefined,
    terminalId: undefined,
  };
}

/** The id of a call's line: its first field, up to the second one (`,"title":` holds raw quotes, so it is never inside a string). */
function lineId(line: string): string {
  return JSON.parse(line.slice(6, line.indexOf(',"title":'))) as string;
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
  /**
   * Calls a late update brought back into the state, listed where their line is: by id, their last
   * line once they left the state again, or undefined while the state has them.
   */
  private readonly restored = new Map<string, ResultCall | undefined>();

  constructor(private readonly dir: string = tmpdir()) {}

  /**
   * Keeps the lines of the passed calls that `ours` says belong to the run, in order: a call that
   * left the state as its result line, a call kept in the state as its id, read from the state at the end.
   */
  add(passed: readonly PassedCall[], ours: (turnId: string) => boolean): void {
    const lines: string[] = [];
    for (const { call, kept } of passed) {
      if (this.restored.has(call.toolCallId)) {
        // Listed where its first line is: only its last state is kept.
        if (!kept) this.restored.set(call.toolCallId, resultCall(call));
        continue;
      }
      if (!ours(call.turnId)) continue;
      lines.push(JSON.stringify(kept ? call.toolCallId : resultCall(call)));
      if (kept) this.kept++;
    }
    if (lines.length === 0) return;
    this.count += lines.length;
    const text = `${lines.join("\n")}\n`;
    if (!this.spool(text)) this.held.push(text);
  }

  /**
   * The calls of `ids` that left the state, as they were, to put back into it (in turn `turnId`)
   * before an update to them is applied; ids not found are calls it never held. One read of the
   * spool for all of them.
   */
  recall(ids: readonly string[], at: number, turnId: string): ToolCallView[] {
    const found: ToolCallView[] = [];
    const wanted = new Map<string, string>();
    for (const id of ids) {
      const last = this.restored.get(id);
      if (last) {
        found.push(restoredCall(last, turnId, at));
        this.restored.set(id, undefined);
      } else if (!this.restored.has(id)) wanted.set(id, `{"id":${JSON.stringify(id)},`);
    }
    for (const piece of wanted.size ? this.pieces() : []) {
      for (const [id, head] of wanted) {
        // Only a line begins with `{"id":` (a string's quotes are escaped): where the head is, its line is.
        const start = piece.indexOf(head);
        if (start < 0) continue;
        found.push(restoredCall(JSON.parse(piece.toString("utf8", start, piece.indexOf(NEWLINE, start))) as ResultCall, turnId, at));
        this.restored.set(id, undefined);
        wanted.delete(id);
      }
      if (wanted.size === 0) break;
    }
    return found;
  }

  /** Whether a late update brought the call back: its line is where it was first passed. */
  isRestored(id: string): boolean {
    return this.restored.has(id);
  }

  /** The calls' lines in order, each read back as it is asked for; `state`: the calls still in the state, by id. */
  *calls(state: Readonly<Record<string, ToolCallView>>): Generator<ResultCall> {
    for (const line of this.lines()) {
      if (line.startsWith('"')) {
        const call = state[JSON.parse(line) as string];
        if (call) yield resultCall(call);
      } else if (this.restored.size > 0 && this.restored.has(lineId(line))) {
        const id = lineId(line);
        const last = this.restored.get(id) ?? (state[id] && resultCall(state[id]));
        if (last) yield last;
      } else yield JSON.parse(line) as ResultCall;
    }
  }

  /** The spooled lines, then those held in memory. */
  private *lines(): Generator<string> {
    // A line at a time from the bytes: a string of a whole piece (a megabyte) would be a large
    // object, which only a full collection frees, and the result's peak would grow by the spool's size.
    for (const piece of this.pieces()) {
      let from = 0;
      for (let nl = piece.indexOf(NEWLINE); nl >= 0; nl = piece.indexOf(NEWLINE, from)) {
        yield piece.toString("utf8", from, nl);
        from = nl + 1;
      }
    }
  }

  /** The spool's bytes a megabyte or so at a time, each piece whole lines (read before the next is asked for), then the lines held in memory. */
  private *pieces(): Generator<Buffer> {
    if (this.fd !== undefined) {
      const buf = Buffer.allocUnsafe(READ_BYTES);
      let rest: Buffer = Buffer.alloc(0);
      for (let pos = 0; pos < this.written;) {
        const n = readSync(this.fd, buf, 0, Math.min(READ_BYTES, this.written - pos), pos);
        if (n <= 0) throw new Error("the spool of finished calls ended early");
        pos += n;
        const chunk = rest.length ? Buffer.concat([rest, buf.subarray(0, n)]) : buf.subarray(0, n);
        const end = chunk.lastIndexOf(NEWLINE) + 1;
        yield chunk.subarray(0, end);
        // Copied: the next read reuses `buf`.
        rest = Buffer.from(chunk.subarray(end));
      }
    }
    for (const text of this.held) yield Buffer.from(text);
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
