import type { ColorLevel } from "../render/style.js";
import type { ItemView } from "../render/item-view.js";
import { itemRows } from "../render/item-rows.js";

/** How every item of a batch is drawn: the options a settled item's rows depend on besides its view. */
export interface RowLook {
  width: number;
  expanded: boolean;
  links: boolean;
}

/** Messages to the row thread. */
export type ToRowThread =
  /** The main thread's colour settings: a worker's stdout is not the terminal, so it cannot detect them. */
  | { type: "config"; level: ColorLevel; noColor: string | undefined }
  /** Draw these items, in order, and send their rows back. */
  | { type: "draw"; look: RowLook; jobs: { id: number; view: ItemView }[] }
  /** Forget what is queued: the rows are no longer wanted (a reprint, another width). */
  | { type: "drop" };

/** Messages from the row thread: rows of jobs in the order asked; `rows` is absent for a job that failed (drawn on the main thread then). */
export type FromRowThread = { type: "rows"; drawn: { id: number; rows?: string[] }[] };

/** The rows of one settled item as the printer draws it when no live screen and no streaming memo is involved. */
export function settledRows(view: ItemView, look: RowLook): string[] {
  return itemRows(view, { width: look.width, expanded: look.expanded, links: look.links });
}
