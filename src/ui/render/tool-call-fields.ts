import type { ToolCallView } from "../../session/state.js";

/** A path relative to the session cwd when it is inside it, as given otherwise. */
export function relativePath(path: string, cwd: string | undefined): string {
  if (!cwd) return path;
  const base = cwd.endsWith("/") ? cwd.slice(0, -1) : cwd;
  if (path === base) return ".";
  return path.startsWith(`${base}/`) ? path.slice(base.length + 1) : path;
}

/** What the permission answer was, in words: "allowed once", "rejected", "permission cancelled". */
export function permissionLabel(permission: ToolCallView["permission"]): { text: string; allowed: boolean } | undefined {
  if (!permission) return undefined;
  if (permission.outcome === "cancelled") {
    return { text: permission.source === "agent" ? "permission withdrawn" : "permission cancelled", allowed: false };
  }
  const rule = permission.rule;
  if (permission.source === "rule" && rule) {
    const allowed = permission.optionKind === "allow_once" || permission.optionKind === "allow_always";
    return { text: `${allowed ? "allowed" : "rejected"} by rule \`${rule.text}\` ${rule.from}`, allowed };
  }
  const byPolicy = permission.source === "policy" ? " by policy" : permission.via === "attached" ? " from another terminal" : "";
  switch (permission.optionKind) {
    case "allow_once":
      return { text: `allowed once${byPolicy}`, allowed: true };
    case "allow_always":
      return { text: `always allowed${byPolicy}`, allowed: true };
    case "reject_once":
      return { text: `rejected${byPolicy}`, allowed: false };
    case "reject_always":
      return { text: `always rejected${byPolicy}`, allowed: false };
    default:
      return { text: `${permission.optionName ?? "answered"}${byPolicy}`, allowed: true };
  }
}

/**
 * The first `max` lines of markdown source, with an open code fence closed so the clipped part
 * still renders as code; `hidden` counts the lines left out.
 */
export function clipMarkdown(text: string, max: number): { text: string; hidden: number } {
  const lines = text.replace(/\n+$/, "").split("\n");
  if (lines.length <= max) return { text: lines.join("\n"), hidden: 0 };
  const kept = lines.slice(0, Math.max(0, max));
  let fence: string | null = null;
  for (const line of kept) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (!marker) continue;
    if (!fence) fence = marker;
    else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
  }
  if (fence) kept.push(fence);
  return { text: kept.join("\n"), hidden: lines.length - Math.max(0, max) };
}

/** Of a running command's output, the last `max` lines, and how many were left out above. */
export function tailLines(text: string, max: number): { text: string; hidden: number } {
  const lines = stripControl(text).replace(/\n+$/, "").split("\n");
  if (lines.length <= max) return { text: lines.join("\n"), hidden: 0 };
  return { text: lines.slice(-max).join("\n"), hidden: lines.length - max };
}

/**
 * Of a finished command's output, every line when they fit in `max` rows; else its first lines,
 * how many are left out, and its last lines (the marker takes a row of the `max`).
 */
export function headTailLines(text: string, max: number): { head: string[]; hidden: number; tail: string[] } {
  const lines = stripControl(text).replace(/\n+$/, "").split("\n");
  if (lines.length <= max) return { head: lines, hidden: 0, tail: [] };
  const room = Math.max(2, max - 1);
  const head = Math.max(1, Math.floor(room / 4));
  const tail = room - head;
  return { head: lines.slice(0, head), hidden: lines.length - head - tail, tail: lines.slice(-tail) };
}

/**
 * Removes escape sequences that move the cursor or clear the screen (they would wreck the layout)
 * and carriage-return overwrites, and expands tabs; colour (SGR) sequences stay.
 */
function stripControl(text: string): string {
  return text
    .replace(/\r\n/g, "\n")
    .replace(/\u001b\[[0-9;?]*[A-Za-ln-z]/g, "")
    .replace(/\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)/g, "")
    .replace(/\u001b[()][0-9A-Za-z]/g, "")
    .split("\n")
    .map((line) => expandTabs(line.slice(line.lastIndexOf("\r") + 1)))
    .join("\n");
}

/** Tabs as spaces to the next multiple of 8: the layout counts a tab as one column, the terminal does not. */
function expandTabs(line: string): string {
  if (!line.includes("\t")) return line;
  let out = "";
  for (const ch of line) out += ch === "\t" ? " ".repeat(8 - (out.length % 8)) : ch;
  return out;
}

/** Compact one-line JSON of anything, cut to `max` characters. */
export function compactJson(value: unknown, max: number): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
}
