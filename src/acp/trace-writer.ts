import { closeSync, openSync, writeSync } from "node:fs";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { redactSecrets } from "./redact.js";

/** Records every JSON-RPC message in the format of ../shared/traces: `{"t","dir","msg"}` per line. */
export class TraceWriter {
  private fd: number;
  private readonly start = Date.now();

  constructor(file: string) {
    this.fd = openSync(file, "w", 0o600);
    this.note("agent process 1 started");
  }

  /** One wire message, secrets redacted; written synchronously so a crash loses nothing already seen. */
  message(dir: "client" | "agent", msg: AnyMessage): void {
    this.line({ t: Date.now() - this.start, dir, msg: redactSecrets(msg) });
  }

  /** An event that is not a wire message. */
  note(text: string): void {
    this.line({ t: Date.now() - this.start, dir: "note", text });
  }

  private line(obj: object): void {
    if (this.fd < 0) return;
    writeSync(this.fd, `${JSON.stringify(obj)}\n`);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}
