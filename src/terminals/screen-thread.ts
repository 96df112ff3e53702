import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { FromScreenThread, ToScreenThread } from "./screen-protocol.js";

/** What the thread delivers to one screen. */
export interface ScreenThreadClient {
  receive(message: FromScreenThread): void;
  /** The thread died (`reason` says why, for the user); nothing more will come. */
  lost(reason: string): void;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The worker's file: beside this module in the bundle (dist/bundle/screen-worker.js) and in tsc's
 * dist/terminals/, else, when running from sources (tests), the built one.
 */
function workerFile(): string {
  const candidates = [path.join(here, "screen-worker.js"), path.resolve(here, "../../dist/terminals/screen-worker.js")];
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error("conch's screen worker is missing: run `npm run build`");
  return found;
}

/**
 * The one worker thread that runs the emulators of every client terminal (see screen-worker.ts).
 * Started with the first terminal; it never keeps conch alive on its own, except while the main
 * thread waits for an answer from it (a flush, a text), so such a wait cannot be cut short by exit.
 */
export class ScreenThread {
  private worker: Worker | undefined;
  private readonly clients = new Map<number, ScreenThreadClient>();
  private nextId = 1;
  private waits = 0;

  /** `file` is the worker's script; conch's own is found beside this module. */
  constructor(private readonly file: () => string = workerFile) {}

  /** Registers a screen; returns its id for `post`. */
  attach(client: ScreenThreadClient): number {
    const id = this.nextId++;
    this.clients.set(id, client);
    this.start();
    return id;
  }

  /** Forgets a screen (after its `close` was posted). */
  detach(id: number): void {
    this.clients.delete(id);
  }

  /** Sends a message to the thread (moving the buffers in `transfer`); dropped when it is gone (its screens were told). */
  post(message: ToScreenThread, transfer?: ArrayBuffer[]): void {
    this.worker?.postMessage(message, transfer);
  }

  /** Keeps conch alive until the matching `endWait`: an answer is awaited. */
  beginWait(): void {
    if (this.waits++ === 0) this.worker?.ref();
  }

  /** The answer came: conch may exit without the thread again. */
  endWait(): void {
    if (this.waits > 0 && --this.waits === 0) this.worker?.unref();
  }

  private start(): void {
    if (this.worker) return;
    // No flags of conch's own process: `--input-type` or `--eval` would stop the worker from loading.
    const worker = new Worker(this.file(), { name: "conch-screens", execArgv: [] });
    worker.unref();
    if (this.waits > 0) worker.ref();
    worker.on("message", (message: FromScreenThread) => this.clients.get(message.id)?.receive(message));
    const fail = (cause: Error | number): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const lost = [...this.clients.values()];
      this.clients.clear();
      this.waits = 0;
      const reason = typeof cause === "number" ? `the screen thread exited (code ${cause})` : `the screen thread failed: ${cause.message}`;
      for (const client of lost) client.lost(reason);
    };
    worker.on("error", fail);
    worker.on("exit", fail);
    this.worker = worker;
  }
}

let thread: ScreenThread | undefined;

/** The process's screen thread, created on first use. */
export function screenThread(): ScreenThread {
  thread ??= new ScreenThread();
  return thread;
}
