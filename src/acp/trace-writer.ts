import { closeSync, fchmodSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { writeAllSync } from "../store/private-fs.js";
import { Redactor } from "./redact.js";

/** A trace holds a whole conversation: only its owner reads it, even one written before by an older conch. */
const TRACE_FILE_MODE = 0o600;

/** Of a line that is not JSON-RPC, the trace keeps this much: enough to see what it was. */
const MAX_MALFORMED_CHARS = 4096;

/** Records every JSON-RPC message in the format of ../shared/traces: `{"t","dir","msg"}` per line. */
export class TraceWriter {
  private fd: number;
  private readonly start = Date.now();
  /** Why writing stopped (a full disk), once it has; the run goes on without its trace. */
  failure?: string;

  /**
   * Opens (truncates) `file`, creating its missing folders 0700; the file is 0600 whatever it was.
   * `onFailure` hears once if a later write fails; `opening` is the first note (what was started).
   * `append` goes on after what is there: the agent started again (`/restart`) in the same run.
   */
  constructor(
    file: string,
    private readonly redactor: Redactor = new Redactor(),
    private readonly onFailure: (message: string) => void = () => undefined,
    opening = "agent process 1 started",
    append = false,
  ) {
    // Only the folders conch creates get 0700: an existing one is the user's to set.
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
    this.fd = openSync(file, append ? "a" : "w", TRACE_FILE_MODE);
    fchmodSync(this.fd, TRACE_FILE_MODE);
    this.note(opening);
  }

  /** One wire message, secrets redacted; written synchronously so a crash loses nothing already seen. */
  message(dir: "client" | "agent", msg: AnyMessage): void {
    if (this.fd < 0) return;
    this.line({ t: Date.now() - this.start, dir, msg: this.redactor.json(msg) });
  }

  /** A line from the agent that is not a JSON-RPC message: kept as a note, so traces stay readable as messages. */
  malformed(line: string, error: string): void {
    this.note(
      `the agent wrote a line that is not JSON-RPC (${error}): ${this.redactor.text(line.length > MAX_MALFORMED_CHARS ? `${line.slice(0, MAX_MALFORMED_CHARS)}…` : line)}`,
    );
  }

  /** An event that is not a wire message. */
  note(text: string): void {
    this.line({ t: Date.now() - this.start, dir: "note", text });
  }

  private line(obj: object): void {
    if (this.fd < 0) return;
    try {
      writeAllSync(this.fd, `${JSON.stringify(obj)}\n`);
    } catch (err) {
      this.failure = `the trace could not be written, so it stops here: ${(err as Error).message}`;
      this.close();
      this.onFailure(this.failure);
    }
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}
