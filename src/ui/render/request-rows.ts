import type { ToolKind } from "@agentclientprotocol/sdk";
import { safeLine, safeText } from "../../text/terminal-safe.js";
import { KIND_ICONS } from "./theme.js";
import { compactJson, relativePath } from "./tool-call-fields.js";
import { diffRows } from "./diff-rows.js";
import type { RequestView } from "./request-view.js";
import { paint } from "./style.js";
import { hang, truncateRow, wrapRows } from "./text.js";
import { clippedMarkdownRows, clippedOutputRows } from "./tool-card-rows.js";

/** Lines of a diff shown in a permission request: enough to judge an edit, bounded so the prompt fits. */
const REQUEST_DIFF_LINES = 40;
/** Lines of the agent's reason or of output shown in a permission request. */
const REQUEST_TEXT_LINES = 6;

/** How tightly a request is drawn: each step leaves out more of what is not the change itself. */
interface Fit {
  context: number;
  noHunkHeaders?: boolean;
  /** No blank rows between the parts. */
  tight?: boolean;
  /** Diff lines per diff (changes first: with no context, all of them are changes). */
  diffLines?: number;
}

const FITS: Fit[] = [{ context: 3 }, { context: 1 }, { context: 0 }, { context: 0, noHunkHeaders: true, tight: true }];

/**
 * What a permission request would do, as rows of at most `width` cells: the tool, its command and
 * cwd, its diffs, its paths, the agent's reason; its raw input when it says nothing else. With
 * `maxRows`, a request that does not fit gives up the context around its changes, then its hunk
 * headers and blank rows, then its last changed lines: the lines being approved come first.
 */
export function requestRows(view: RequestView, width: number, maxRows = Infinity): string[] {
  let rows: string[] = [];
  for (const fit of FITS) {
    rows = requestRowsAt(view, width, fit);
    if (rows.length <= maxRows) return rows;
  }
  const last = FITS[FITS.length - 1];
  const diffs = view.display.blocks.filter((b) => b.type === "diff").length;
  if (diffs === 0) return rows;
  const bare = requestRowsAt(view, width, { ...last, diffLines: 0 }).length;
  // Each diff keeps its header and a "… N more lines" row; what is left goes to its lines.
  const each = Math.max(1, Math.floor((maxRows - bare - diffs) / diffs));
  return requestRowsAt(view, width, { ...last, diffLines: each });
}

/** The command an `execute` request would run, or undefined for any other kind. */
function commandOf(view: RequestView): string | undefined {
  return view.display.kind === "execute" ? (view.display.command ?? view.display.title) : undefined;
}

/** The request's question: "Permission", its kind and title. */
function headRows(view: RequestView, width: number): string[] {
  const kind: ToolKind = view.display.kind ?? "other";
  const head =
    paint("Permission ", { role: "warning", bold: true }) +
    paint(`${KIND_ICONS[kind] ?? KIND_ICONS.other} ${kind} `, { dim: true }) +
    paint(safeLine(view.display.title), { bold: true });
  return wrapRows(head, width);
}

/** The command's rows, "$ " hanging before it. */
function commandRows(command: string, width: number): string[] {
  return hang(paint("$ ", { role: "accent" }), "  ", paint(safeText(command), { bold: true }), width);
}

/**
 * How many of a tightly drawn request's first rows say what is asked (its question and the command
 * it would run): a prompt that must be cut keeps these, and cuts what follows them.
 */
export function requestEssentials(view: RequestView, width: number): number {
  const command = commandOf(view);
  return headRows(view, width).length + (command === undefined ? 0 : commandRows(command, width).length);
}

function requestRowsAt(view: RequestView, width: number, fit: Fit): string[] {
  const { display, locations, rawInput, cwd } = view;
  const gap = fit.tight ? [] : [""];

  const command = commandOf(view);
  const commandCwd = command !== undefined ? (display.cwd ?? cwd) : undefined;
  const diffs = display.blocks.flatMap((b) => (b.type === "diff" ? [b] : []));
  const texts = display.blocks.flatMap((b) =>
    (b.type === "prose" || b.type === "output") && b.text.trim() !== command?.trim() ? [b] : [],
  );
  const diffPaths = new Set(diffs.map((d) => d.path));
  const paths = locations.filter((l) => !diffPaths.has(l.path));

  const rows = headRows(view, width);
  if (command !== undefined) {
    rows.push(...gap, ...commandRows(command, width));
    if (commandCwd) rows.push(...wrapRows(paint(`in ${safeLine(commandCwd)}`, { dim: true }), width));
  }
  for (const d of diffs) {
    const oldText = d.oldText === null || d.oldText === undefined ? d.oldText : safeText(d.oldText);
    rows.push(
      ...gap,
      ...diffRows(safeLine(relativePath(d.path, cwd)), oldText, safeText(d.newText), width, fit.diffLines ?? REQUEST_DIFF_LINES, {
        context: fit.context,
        noHunkHeaders: fit.noHunkHeaders,
        excerpt: d.excerpt,
      }),
    );
  }
  if (paths.length > 0) {
    rows.push(
      ...wrapRows(
        paint(safeLine(paths.map((l) => `${relativePath(l.path, cwd)}${typeof l.line === "number" ? `:${l.line}` : ""}`).join("  ")), {
          dim: true,
        }),
        width,
      ),
    );
  }
  for (const t of texts) {
    rows.push(
      ...gap,
      ...(t.type === "prose"
        ? clippedMarkdownRows(t.text, width, false, REQUEST_TEXT_LINES)
        : clippedOutputRows(t.text, width, false, REQUEST_TEXT_LINES)),
    );
  }
  if (command === undefined && diffs.length === 0 && texts.length === 0 && rawInput !== undefined) {
    rows.push(truncateRow(paint(safeLine(compactJson(rawInput, Infinity)), { dim: true }), width));
  }
  return rows;
}

/**
 * The first rows of a request that fit in `max` rows, the last of them saying how many more there
 * are: a big diff must not push the prompt's options off the screen.
 */
export function clipRequestRows(rows: string[], max: number, width = Infinity): string[] {
  const limit = Math.max(2, max);
  if (rows.length <= limit) return rows;
  const hidden = rows.length - (limit - 1);
  // One row, however narrow the screen: the words that do not fit go, never onto a second row.
  const lines = `⋮ ${hidden} more line${hidden === 1 ? "" : "s"}`;
  const words = [`${lines} of the request`, lines, `⋮ ${hidden} more`];
  const said = words.find((w) => w.length <= width) ?? "⋮";
  return [...rows.slice(0, limit - 1), paint(said, { dim: true })];
}
