import { randomUUID } from "node:crypto";
import { closeSync, constants, openSync, writeSync } from "node:fs";

const EMPTY = Buffer.alloc(0);

/** How soon to retry writing the marker when the PTY's buffer is full. */
const MARKER_RETRY_MS = 5;

/**
 * Keeps a command's last output from being lost when it exits.
 *
 * On Linux, once the last holder of a PTY's slave side closes it, libuv reads one more chunk (at
 * most 4 KB) from the master and then reports end of file, dropping whatever the kernel still
 * buffers (node-pty issues #72, #85, #726). A command that prints fast and exits loses its last
 * lines: often the ones that matter, such as a test summary.
 *
 * The fix: conch holds the slave open itself, so the exit of the command alone never ends the
 * stream. When the command is gone, it writes a unique marker into the slave; output is FIFO, so
 * once the marker comes out of the master everything before it has been read. Then the slave is
 * closed and the stream ends normally. The marker itself never reaches the log or the screen.
 */
export class PtyExitDrain {
  private slaveFd: number | null;
  private readonly marker = `\x1b]7777;conch-drain-${randomUUID()}\x07`;
  private readonly markerBytes = Buffer.from(this.marker, "latin1");
  private unsentMarker = "";
  private held: Buffer = EMPTY;
  private state: "running" | "draining" | "done" = "running";
  private retryTimer: NodeJS.Timeout | undefined;

  /** `ptsName` is the slave device (`/dev/pts/N`); without one, output passes through unprotected. */
  constructor(ptsName: string | undefined) {
    this.slaveFd = ptsName ? openSlave(ptsName) : null;
    if (this.slaveFd === null) this.state = "done";
  }

  /** True between the command's exit and the marker's arrival: reading must not pause now. */
  get draining(): boolean {
    return this.state === "draining";
  }

  /** The command has exited: send the marker after its last output. */
  begin(): void {
    if (this.state !== "running") return;
    this.state = "draining";
    this.unsentMarker = this.marker;
    this.sendMarker();
  }

  /** Passes output (the PTY's bytes) through; while draining, holds it back until the marker arrives. Returns what to forward. */
  take(data: Buffer): Buffer {
    if (this.state !== "draining") {
      // Output held back when draining was abandoned goes out first.
      if (this.held.length === 0) return data;
      const output = Buffer.concat([this.held, data]);
      this.held = EMPTY;
      return output;
    }
    this.held = this.held.length === 0 ? data : Buffer.concat([this.held, data]);
    const at = this.held.indexOf(this.markerBytes);
    if (at < 0) {
      // Reading freed room in the PTY; a marker that did not fit may fit now.
      this.sendMarker();
      return EMPTY;
    }
    const output = Buffer.concat([this.held.subarray(0, at), this.held.subarray(at + this.markerBytes.length)]);
    this.held = EMPTY;
    this.release();
    return output;
  }

  /** The PTY stream ended (or node-pty gave up on it): returns output still held back and lets go of the slave. */
  finish(): Buffer {
    const rest = this.held;
    this.held = EMPTY;
    this.release();
    return rest;
  }

  private sendMarker(): void {
    if (this.unsentMarker === "" || this.slaveFd === null) return;
    clearTimeout(this.retryTimer);
    try {
      // The marker is ASCII, so bytes written equal characters written.
      const written = writeSync(this.slaveFd, this.unsentMarker);
      this.unsentMarker = this.unsentMarker.slice(written);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") {
        // The slave is unusable; stop waiting for a marker that cannot come.
        this.unsentMarker = "";
        this.state = "done";
        this.release();
        return;
      }
    }
    if (this.unsentMarker !== "") {
      this.retryTimer = setTimeout(() => this.sendMarker(), MARKER_RETRY_MS);
      this.retryTimer.unref();
    }
  }

  private release(): void {
    this.state = "done";
    this.unsentMarker = "";
    clearTimeout(this.retryTimer);
    if (this.slaveFd === null) return;
    try {
      closeSync(this.slaveFd);
    } catch {
      // Already closed; nothing to free.
    }
    this.slaveFd = null;
  }
}

function openSlave(ptsName: string): number | null {
  try {
    // O_NOCTTY: conch must not adopt the command's terminal. O_NONBLOCK: a PTY stopped by ^S
    // would otherwise block conch on the marker write.
    return openSync(ptsName, constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
}
