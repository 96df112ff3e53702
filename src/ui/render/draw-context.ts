import type { Terminal } from "../../terminals/terminal.js";

/** What transcript content is drawn with besides its view: the one option shape of the row renderers. */
export interface DrawContext {
  width: number;
  /** Tool output and thoughts in full (/expand). */
  expanded?: boolean;
  /** The live screen of a terminal, when there is one. */
  terminal?: (id: string) => Terminal | undefined;
  /** Spinner frame for a running call (the live region animates it; printed cards never run). */
  frame?: number;
  /** Milliseconds since epoch, for a running pane's elapsed time. */
  now?: number;
  /** File paths become links (OSC 8), for a terminal that takes them. */
  links?: boolean;
  /** Expanded, also show a call's raw input and output as JSON (the default); the search view leaves them out. */
  rawJson?: boolean;
}
