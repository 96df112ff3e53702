/**
 * The row thread: draws settled transcript items (markdown, highlighting, cards, wrapping, all pure
 * string work) to the rows the scrollback gets, so a long backlog (a resumed session) is drawn on
 * the other core while the main thread folds, writes and takes keys. The rows are the main thread's
 * own: the same `itemRows` over the same view and options, at the colour level it was told.
 * Started by `row-farm.ts`.
 */
import { parentPort } from "node:worker_threads";
import { loadRenderLibs } from "../render/render-libs.js";
import { setColorLevel } from "../render/style.js";
import { settledRows, type FromRowThread, type RowLook, type ToRowThread } from "./row-protocol.js";
import type { ItemView } from "../render/item-view.js";

/** Rows go back at least this often while a queue is drawn, so the main thread writes as they come. */
const BATCH_MS = 12;

const port = parentPort;
if (!port) throw new Error("row-worker runs as a worker thread");

const queue: { id: number; view: ItemView; look: RowLook }[] = [];
let head = 0;
let scheduled = false;
const libs = loadRenderLibs();

function drain(): void {
  scheduled = false;
  const drawn: FromRowThread["drawn"] = [];
  const deadline = performance.now() + BATCH_MS;
  while (head < queue.length && (drawn.length === 0 || performance.now() < deadline)) {
    const job = queue[head++];
    try {
      drawn.push({ id: job.id, rows: settledRows(job.view, job.look) });
    } catch {
      drawn.push({ id: job.id });
    }
  }
  if (head === queue.length) {
    queue.length = 0;
    head = 0;
  }
  if (drawn.length > 0) port!.postMessage({ type: "rows", drawn } satisfies FromRowThread);
  // The next batch after a turn of the event loop, so a `drop` is read between batches.
  if (head < queue.length) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  void libs.then(() => setImmediate(drain));
}

port.on("message", (message: ToRowThread) => {
  switch (message.type) {
    case "config":
      setColorLevel(message.level);
      if (message.noColor === undefined) delete process.env.NO_COLOR;
      else process.env.NO_COLOR = message.noColor;
      return;
    case "draw":
      for (const job of message.jobs) queue.push({ ...job, look: message.look });
      schedule();
      return;
    case "drop":
      queue.length = 0;
      head = 0;
      return;
  }
});
