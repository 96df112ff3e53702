import type { PermissionOption } from "@agentclientprotocol/sdk";
import { safeLine } from "../../text/terminal-safe.js";
import { clipRequestRows, requestEssentials, requestRows } from "./request-rows.js";
import type { RequestView } from "./request-view.js";
import { paint } from "./style.js";
import { wrapRows } from "./text.js";

/**
 * Rows of the screen a prompt never takes: Ink's last line (a frame as tall as the screen makes
 * Ink clear the terminal, scrollback included) and the blank row above the chrome.
 */
export const SCREEN_SLACK = 2;

/** Cells of an option row before its name: the cursor and the keys. */
const OPTION_GUTTER = 7;

/** How a permission prompt is drawn in the rows it has. */
export interface PermissionLayout {
  /** In its rounded border (with a row of padding each side), a blank row above the options. */
  framed: boolean;
  /** Cells of a row inside the prompt. */
  inner: number;
  /** What the request would do, cut to fit (its question and command first, a "⋮ … more lines" row for the rest). */
  details: string[];
  /** The options all in a few rows (`inlineOptionRows`) instead of one per row. */
  inline: boolean;
  /** Rows under the options: the key hint, or only how many more requests wait. */
  hint: string[];
  /** The rows under the prompt (the shell's keys) are shown. */
  below: boolean;
  /** On a screen too small for all of them: how many of the options' rows are shown. */
  optionRows?: number;
}

/** What the prompt is laid out from. */
export interface PermissionLayoutInput {
  view: RequestView;
  options: PermissionOption[];
  /** Each option's keys as shown before its name ("1 y"). */
  labels: string[];
  width: number;
  /** The key hint under the options, and how many more requests wait. */
  hint: string;
  waiting: number;
  /** Rows under the prompt that give way first on a small screen, unless `keepBelow`. */
  below: number;
  keepBelow: boolean;
  /** Rows the prompt and the rows under it may take; within `preferRows` (if it fits there) the screen keeps room above it. */
  maxRows?: number;
  preferRows?: number;
}

/** An option's name as rows under its gutter. */
export function optionNameRows(option: PermissionOption, inner: number): string[] {
  return wrapRows(safeLine(option.name), inner - OPTION_GUTTER);
}

/** The options one after another, wrapped: the chosen one marked and coloured, every one with its keys. */
export function inlineOptionRows(options: PermissionOption[], labels: string[], index: number, inner: number): string[] {
  const items = options.map((option, i) => {
    const label = labels[i] ?? "";
    const selected = i === index;
    const role = option.kind.startsWith("allow") ? "success" : "error";
    // The cursor's cell is there for every option, so the rows wrap the same wherever it is.
    return (
      paint(selected ? "›" : " ", { role: "accent" }) +
      paint(` ${label} `, { dim: !selected }) +
      paint(safeLine(option.name), selected ? { role, bold: true } : {})
    );
  });
  return wrapRows(items.join(" "), inner);
}

/**
 * The prompt laid out to fit its rows. What the user approves comes first: the question and the
 * command, then the options, then the rest of the request (cut, with a row saying how much), then
 * the border, the hints and the rows under the prompt. Each step gives up more of the latter: the
 * full prompt with its request cut; no border and no hints, one option per row; the options in a
 * few rows; how many more requests wait. A screen too small even for that keeps the question and
 * the command (what is approved) and as many of the options' rows as fit, one at least.
 */
export function permissionLayout(input: PermissionLayoutInput): PermissionLayout {
  const { view, options, width, waiting } = input;
  const framedInner = Math.max(10, width - 4);
  const bareInner = Math.max(10, width - 2);
  const waitingRows = waiting > 0 ? wrapRows(paint(`${waiting} more waiting`, { dim: true }), bareInner) : [];
  const optionRows = (inner: number) => options.reduce((n, o) => n + optionNameRows(o, inner).length, 0);

  const full = (maxRows: number | undefined): PermissionLayout | undefined => {
    const hint = wrapRows(input.hint, framedInner);
    const fixed = 3 + optionRows(framedInner) + hint.length + input.below;
    const details = fitDetails(view, framedInner, maxRows === undefined ? Infinity : maxRows - fixed);
    return details && { framed: true, inner: framedInner, details, inline: false, hint, below: true };
  };
  if (input.maxRows === undefined) return full(undefined) as PermissionLayout;
  const below = input.keepBelow ? input.below : 0;
  const bare = (inline: boolean, hint: string[]): PermissionLayout | undefined => {
    const shown = inline ? inlineOptionRows(options, input.labels, 0, bareInner).length : optionRows(bareInner);
    const room = (input.maxRows as number) - shown - hint.length - below;
    const details = fitDetails(view, bareInner, room);
    return details && { framed: false, inner: bareInner, details, inline, hint, below: input.keepBelow };
  };
  const squeezed = (): PermissionLayout => {
    const room = (input.maxRows as number) - below;
    const details = requestRows(view, bareInner, room).slice(0, Math.max(1, Math.min(requestEssentials(view, bareInner), room - 1)));
    return {
      framed: false,
      inner: bareInner,
      details,
      inline: true,
      hint: [],
      below: input.keepBelow,
      optionRows: Math.max(1, room - details.length),
    };
  };
  // The status line counts the requests too: how many more wait is given up before the command.
  return (
    (input.preferRows !== undefined && input.preferRows < input.maxRows ? full(input.preferRows) : undefined) ??
    full(input.maxRows) ??
    bare(false, waitingRows) ??
    bare(true, waitingRows) ??
    bare(true, []) ??
    squeezed()
  );
}

/** The fewest rows the prompt takes with its question, its command and its options shown (the options in a few rows). */
export function permissionNeed(view: RequestView, options: PermissionOption[], labels: string[], width: number): number {
  const inner = Math.max(10, width - 2);
  const details = Math.min(requestRows(view, inner, Infinity).length, requestEssentials(view, inner) + 1);
  return details + inlineOptionRows(options, labels, 0, inner).length;
}

/** The request's rows in `room` rows: whole, or cut after its question and command; undefined when even those do not fit. */
function fitDetails(view: RequestView, inner: number, room: number): string[] | undefined {
  const rows = requestRows(view, inner, room);
  if (rows.length <= room) return rows;
  // The cut rows are drawn tightly (requestRows' last fit), their essentials first; one more row says what was cut.
  return room >= requestEssentials(view, inner) + 1 ? clipRequestRows(rows, room, inner) : undefined;
}
