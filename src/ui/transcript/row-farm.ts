import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ItemView } from "../render/item-view.js";
import { colorLevel } from "../render/style.js";
import type { FromRowThread, RowLook, ToRowThread } from "./row-protocol.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The worker's file: beside this module in the bundle (dist/bundle/row-worker.js) and in tsc's
 * dist/ui/transcript/, else, when running from sources (tests), the built one.
 */
function workerFile(): string {
  const candidates = [path.join(here, "row-worker.js"), path.resolve(here, "../../../dist/ui/transcript/row-worker.js")];
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error("conch's row worker is missing: run `npm run build`");
  return found;
}

/** Once it has nothing left to draw, the thread is kept this long (a reprint soon after reuses it), then ended. */
const IDLE_MS = 10_000;

/** A look as one comparable value. */
function keyOf(look: RowLook): string {
  return `${look.width}:${look.expanded ? 1 : 0}:${look.links ? 1 : 0}`;
}

/** Asked of a view that cannot go to the thread (it did not clone, or the thread failed on it): drawn on the main thread. */
const HERE = "here";

/**
 * Settled items drawn to rows on a worker thread (`row-worker.ts`), ahead of the printer that
 * writes them: a resumed session's backlog is drawn on the other core while the main thread folds,
 * writes and takes keys. Rows are kept per view (`itemViewOf`, the same object while nothing it
 * shows changes) and look; whatever the thread cannot draw is left to the main thread.
 */
export class RowFarm {
  private worker: Worker | undefined;
  private failed = false;
  private nextId = 1;
  /** Jobs sent and not answered, by id. */
  private pending = new Map<number, { view: ItemView; key: string }>();
  /** The look each view was asked at (or `HERE`). */
  private asked = new WeakMap<ItemView, string>();
  private drawn = new WeakMap<ItemView, { key: string; rows: string[] }>();
  private waiter: (() => void) | undefined;
  private idle: ReturnType<typeof setTimeout> | undefined;

  /** `file` is the worker's script; conch's own is found beside this module. */
  constructor(private readonly file: () => string = workerFile) {}

  /** Asks for the rows of `views` at `look`, drawn in this order; views asked before at the same look are not asked again. */
  ask(views: readonly ItemView[], look: RowLook): void {
    if (this.failed) return;
    const key = keyOf(look);
    const jobs: { id: number; view: ItemView }[] = [];
    for (const view of views) {
      if (this.asked.has(view) && (this.asked.get(view) === key || this.asked.get(view) === HERE)) continue;
      const id = this.nextId++;
      this.asked.set(view, key);
      this.pending.set(id, { view, key });
      jobs.push({ id, view });
    }
    if (jobs.length === 0) return;
    const worker = this.start();
    if (!worker) return;
    try {
      this.post({ type: "config", level: colorLevel(), noColor: process.env.NO_COLOR });
      this.post({ type: "draw", look, jobs });
    } catch {
      // A view that does not clone (not plain data): all of this batch is drawn on the main thread.
      for (const job of jobs) {
        this.pending.delete(job.id);
        this.asked.set(job.view, HERE);
      }
    }
  }

  /** The rows of `view` at `look`: drawn, on their way (`"pending"`), or never asked (undefined: draw them yourself). */
  take(view: ItemView, look: RowLook): string[] | "pending" | undefined {
    const key = keyOf(look);
    const got = this.drawn.get(view);
    if (got?.key === key) return got.rows;
    return this.asked.get(view) === key ? "pending" : undefined;
  }

  /**
   * Calls `fn` once when more rows arrive (or the thread fails); one waiter at a time, the last one
   * set. With nothing on its way, soon: the rows waited for may have come before the wait began.
   */
  whenDrawn(fn: () => void): void {
    if (this.pending.size === 0) {
      setImmediate(fn);
      return;
    }
    this.waiter = fn;
  }

  /** Forgets a waiter set by `whenDrawn`. */
  stopWaiting(fn: () => void): void {
    if (this.waiter === fn) this.waiter = undefined;
  }

  /** Forgets every job still queued: their rows are not wanted any more (a reprint, another width). */
  drop(): void {
    if (this.pending.size === 0) return;
    for (const { view } of this.pending.values()) this.asked.delete(view);
    this.pending.clear();
    this.post({ type: "drop" });
    this.idleSoon();
  }

  /** Starts the thread now, so its libraries are loaded before a backlog comes (a resumed session). */
  warm(): void {
    if (!this.failed) this.start();
    this.idleSoon();
  }

  /** Ends the thread. */
  close(): void {
    this.drop();
    const worker = this.worker;
    this.worker = undefined;
    clearTimeout(this.idle);
    void worker?.terminate();
  }

  private post(message: ToRowThread): void {
    this.worker?.postMessage(message);
  }

  private receive(message: FromRowThread): void {
    for (const { id, rows } of message.drawn) {
      const job = this.pending.get(id);
      if (!job) continue;
      this.pending.delete(id);
      if (rows) this.drawn.set(job.view, { key: job.key, rows });
      else this.asked.set(job.view, HERE);
    }
    if (this.pending.size === 0) this.idleSoon();
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  private idleSoon(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      if (this.pending.size === 0) this.close();
    }, IDLE_MS);
    this.idle.unref();
  }

  private start(): Worker | undefined {
    clearTimeout(this.idle);
    if (this.worker) return this.worker;
    let worker: Worker;
    try {
      // No flags of conch's own process: `--input-type` or `--eval` would stop the worker from loading.
      // A small young generation: the thread's garbage is short-lived strings, and V8's default
      // semi-spaces added ~20 MiB to a resume's peak RSS for no measurable speed.
      worker = new Worker(this.file(), { name: "conch-rows", execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 8 } });
    } catch {
      this.failed = true;
      return undefined;
    }
    worker.unref();
    worker.on("message", (message: FromRowThread) => this.receive(message));
    const fail = (): void => {
      if (this.worker !== worker) return;
      // Whatever was asked is drawn on the main thread from now on.
      this.worker = undefined;
      this.failed = true;
      for (const { view } of this.pending.values()) this.asked.set(view, HERE);
      this.pending.clear();
      this.wake();
    };
    worker.on("error", fail);
    worker.on("exit", fail);
    this.worker = worker;
    return worker;
  }
}

let farm: RowFarm | undefined;

/** The process's row thread, created on first use. */
export function rowFarm(): RowFarm {
  farm ??= new RowFarm();
  return farm;
}
