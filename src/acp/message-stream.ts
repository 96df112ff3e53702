import type { Readable, Writable } from "node:stream";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";

/** Taps on the wire: every message both ways, lines that are not JSON, and messages taken out of the SDK's path. */
export interface WireTaps {
  /** Every parsed message, both directions, in wire order. */
  onMessage?(dir: "client" | "agent", msg: AnyMessage): void;
  /** A line from the agent that is not a JSON-RPC message. */
  onMalformed?(line: string, error: string): void;
  /**
   * A read of the agent's output begins ("start") or has been handled ("end"): the messages in
   * between arrived together, so their consumer may take them as one batch.
   */
  onBurst?(phase: "start" | "end"): void;
  /**
   * Reading pauses once a turn of the event loop has spent `READ_BUDGET_MS` on the agent's output,
   * until what was read is handled: for a UI whose keys must not wait behind a flood. Print mode,
   * with no keys to wait, reads all it can in one go.
   */
  paceReads?: boolean;
  /**
   * Asked after each read: a promise when whoever takes the messages is behind (print mode's
   * stdout over its mark, a slow reader), and reading waits for it, so what is not yet written
   * stays in the agent's pipe instead of conch's memory. Not once the agent has exited: what it
   * wrote is read before its pipes close.
   */
  holdReads?(): Promise<void> | undefined;
  /**
   * Return true to take an incoming message away from the SDK. conch uses it for `session/update`,
   * which the SDK would reject with -32602 when the kind is newer than the SDK.
   */
  intercept?(msg: AnyMessage): boolean;
}

/**
 * How long one turn of the event loop may spend on the agent's output before reading pauses until
 * the next turn: what was read goes on as one batch, and a key typed meanwhile is handled before
 * the next read, so a flood never keeps it waiting for much more than this. 4 ms, not 8: keys
 * during a max-rate flood wait less, and the flood is drawn as fast (bench/flood.mjs).
 */
const READ_BUDGET_MS = 4;

function isMessage(value: unknown): value is AnyMessage {
  return value !== null && typeof value === "object" && !Array.isArray(value) && (value as { jsonrpc?: unknown }).jsonrpc === "2.0";
}

/** The message stream, and a way to wait until what was sent has reached the agent's stdin. */
export interface AgentStream extends Stream {
  /** Resolves once every message written so far has been handed to the pipe. */
  drained(): Promise<void>;
}

/**
 * The SDK's message stream over an agent's stdio, newline-delimited JSON. conch does the framing
 * itself so that it can trace each message, report malformed lines instead of dying on them (a
 * byte order mark before a message is dropped), and route `session/update` around the SDK's strict
 * validation.
 */
export function agentMessageStream(stdout: Readable, stdin: Writable, taps: WireTaps = {}, gone?: Promise<void>): AgentStream {
  // Once the SDK closes the connection, lines still in flight have nowhere to go.
  let closed = false;
  const readable = new ReadableStream<AnyMessage>({
    cancel() {
      closed = true;
    },
    start(controller) {
      const handleLine = (raw: string) => {
        // Some Windows-built tools start their output with a byte order mark; JSON.parse refuses it.
        const line = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
        if (line.trim() === "") return;
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch (err) {
          taps.onMalformed?.(line, (err as Error).message);
          return;
        }
        if (!isMessage(parsed)) {
          taps.onMalformed?.(line, "not a JSON-RPC 2.0 message");
          return;
        }
        taps.onMessage?.("agent", parsed);
        if (taps.intercept?.(parsed)) return;
        if (!closed) controller.enqueue(parsed);
      };
      stdout.setEncoding("utf8");
      // A long line arrives in many chunks: keep them in a list and look for the newline only in
      // the new chunk, so a 5 MB message costs one join, not one rescan per chunk.
      let parts: string[] = [];
      /** When this turn of the event loop began reading the agent's output. */
      let turnStart: number | undefined;
      /** Reading waits for the consumer (`holdReads`); never after the agent exited. */
      let held = false;
      let exited = false;
      void gone?.then(() => {
        exited = true;
        if (held) stdout.resume();
        held = false;
      });
      const hold = () => {
        const wait = exited ? undefined : taps.holdReads?.();
        if (!wait) return;
        held = true;
        stdout.pause();
        void wait.then(() => {
          if (!held) return;
          held = false;
          stdout.resume();
        });
      };
      stdout.on("data", (chunk: string) => {
        if (turnStart === undefined) {
          turnStart = performance.now();
          setImmediate(() => (turnStart = undefined));
        }
        let start = 0;
        let nl = chunk.indexOf("\n");
        taps.onBurst?.("start");
        try {
          while (nl >= 0) {
            parts.push(chunk.slice(start, nl));
            const line = parts.length === 1 ? parts[0] : parts.join("");
            parts = [];
            handleLine(line);
            start = nl + 1;
            nl = chunk.indexOf("\n", start);
          }
        } finally {
          taps.onBurst?.("end");
        }
        if (start < chunk.length) parts.push(chunk.slice(start));
        if (!held && taps.holdReads) hold();
        if (!held && taps.paceReads && performance.now() - turnStart > READ_BUDGET_MS && !stdout.isPaused()) {
          stdout.pause();
          // After the batch read so far is handled (its setImmediate came first).
          setImmediate(() => !held && stdout.resume());
        }
      });
      const end = () => {
        if (parts.length) handleLine(parts.join(""));
        parts = [];
        if (!closed) controller.close();
        closed = true;
      };
      stdout.on("end", end);
      // conch closes the pipe itself once the agent has exited (a grandchild may hold it open).
      stdout.on("close", end);
      stdout.on("error", (err) => {
        if (!closed) controller.error(err);
        closed = true;
      });
    },
  });
  const writes = new WriteTracker();
  const writable = new WritableStream<AnyMessage>({
    write(msg) {
      taps.onMessage?.("client", msg);
      return writes.track(
        new Promise<void>((resolve, reject) => {
          if (stdin.destroyed || stdin.writableEnded) {
            reject(new Error("the agent's stdin is closed"));
            return;
          }
          stdin.write(`${JSON.stringify(msg)}\n`, (err) => (err ? reject(err) : resolve()));
        }),
      );
    },
  });
  return { readable, writable, drained: () => writes.drained() };
}

/** Knows when every message written so far has been handed on. */
class WriteTracker {
  private last: Promise<unknown> = Promise.resolve();

  track(written: Promise<void>): Promise<void> {
    this.last = written.catch(() => undefined);
    return written;
  }

  /**
   * Writes are serial: once the last one started is done, all before it are. A message still being
   * produced (an answer whose handler just returned) or queued behind that write enters the queue in
   * promise jobs, which have all run by the next turn of the event loop: look again then.
   */
  async drained(): Promise<void> {
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    for (;;) {
      await nextTurn();
      const seen = this.last;
      await seen;
      await nextTurn();
      if (seen === this.last) return;
    }
  }
}

/**
 * The same taps over a message stream the SDK already frames (its WebSocket and streamable-HTTP
 * clients): every message is traced both ways and `session/update` is routed around the SDK, so a
 * remote agent is read exactly like a local one.
 */
export function tappedMessageStream(inner: Stream, taps: WireTaps = {}): AgentStream {
  const readable = inner.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform(msg, controller) {
        taps.onMessage?.("agent", msg);
        if (!taps.intercept?.(msg)) controller.enqueue(msg);
        // A promise here stops the pull from the remote stream until it resolves.
        return taps.holdReads?.();
      },
    }),
  );
  const writer = inner.writable.getWriter();
  const writes = new WriteTracker();
  const writable = new WritableStream<AnyMessage>({
    write(msg) {
      taps.onMessage?.("client", msg);
      return writes.track(writer.write(msg));
    },
    close() {
      return writer.close().catch(() => undefined);
    },
    abort(reason) {
      return writer.abort(reason).catch(() => undefined);
    },
  });
  return { readable, writable, drained: () => writes.drained() };
}
