import { RESULT_CALL_KEYS } from "./call-record.js";

/** How many calls of the result's list go into one write. */
const CALLS_PER_WRITE = 2000;

/** A result's list of calls; with `compact`, the same calls as compact JSON (spooled lines go out as read, unparsed). */
export type CallList = Iterable<object> & { compact?(): Iterable<string> };

/**
 * A printer of `compact`, the compact JSON of a flat object (no object or array in it) with the keys
 * `keys` in that order, as `JSON.stringify(value, null, indent)` writes it, lines joined with `pad`;
 * it answers undefined for any other text. No parse: a key with its quotes and colon, after a comma,
 * is never inside a string, whose quotes are escaped.
 */
export function flatPrinter(keys: readonly string[], indent: number, pad: string): (compact: string) => string | undefined {
  const heads = keys.map((k) => `"${k}":`);
  const next = keys.map((k, i) => (i + 1 < keys.length ? `,"${keys[i + 1]}":` : ""));
  const shown = keys.map((k, i) => `${i ? "," : ""}${pad}${" ".repeat(indent)}"${k}": `);
  const close = `${pad}}`;
  return (compact) => {
    let out = "{";
    let from = 1;
    for (let k = 0; k < keys.length; k++) {
      if (!compact.startsWith(heads[k], from)) return undefined;
      const start = from + heads[k].length;
      const end = next[k] ? compact.indexOf(next[k], start) : compact.length - 1;
      if (end < start) return undefined;
      const value = compact.slice(start, end);
      if (!isPlainValue(value)) return undefined;
      out += shown[k] + value;
      from = end + 1;
    }
    return compact.endsWith("}") ? out + close : undefined;
  };
}

/** Whether `v` is one JSON string, number, boolean or null, as compact JSON writes it. */
function isPlainValue(v: string): boolean {
  if (!v.startsWith('"')) return /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|null|true|false)$/.test(v);
  // The string ends at its first quote that no backslash escapes.
  for (let q = v.indexOf('"', 1); q > 0; q = v.indexOf('"', q + 1)) {
    let slashes = 0;
    while (v[q - 1 - slashes] === "\\") slashes++;
    if (slashes % 2 === 0) return q === v.length - 1;
  }
  return false;
}

/**
 * Writes `result` and a newline, the same bytes as `JSON.stringify(result, null, indent)`, with its
 * `toolCalls` list in pieces of a few thousand calls: the result of a run of 150,000 calls is not
 * one 20 MB string (and its copy for the pipe) at the end of the run. After each piece it waits for
 * `drained` (stdout's buffer below its mark): a pipe read slower than conch writes would otherwise
 * hold the whole result in memory, queued, at the run's peak. `toolCalls` may be any iterable (a
 * run's spooled calls): it is read once, a piece at a time. A list with `compact` is read as compact
 * JSON lines whose keys are `keys`, in order (a result's calls), and written without a parse.
 */
export async function writeResultJson(
  result: { toolCalls: CallList },
  indent: 0 | 2,
  write: (text: string) => void,
  drained: () => Promise<void> = () => Promise.resolve(),
  keys: readonly string[] = RESULT_CALL_KEYS,
): Promise<void> {
  const list = result.toolCalls;
  const calls: Iterator<object | string> = (list.compact?.() ?? list)[Symbol.iterator]();
  let next = calls.next();
  const space = indent || undefined;
  const whole = JSON.stringify({ ...result, toolCalls: [] }, null, space);
  // A key is quoted with nothing before its colon; inside a string value its quotes would be escaped.
  const empty = indent ? `\n${" ".repeat(indent)}"toolCalls": []` : `"toolCalls":[]`;
  const at = whole.indexOf(empty);
  if (next.done || at < 0) {
    write(`${JSON.stringify(result, null, space)}\n`);
    return;
  }
  // Each call sits one level deeper than the list: its lines are indented twice.
  const pad = `\n${" ".repeat(2 * indent)}`;
  const parsed = (c: object | string) => (typeof c === "string" ? (JSON.parse(c) as object) : c);
  const pretty = flatPrinter(keys, indent, pad);
  const item = indent
    ? (c: object | string) => `${pad}${(typeof c === "string" && pretty(c)) || JSON.stringify(parsed(c), null, indent).replace(/\n/g, pad)}`
    : (c: object | string) => (typeof c === "string" ? c : JSON.stringify(c));
  let text = `${whole.slice(0, at + empty.length - 1)}`;
  let first = true;
  while (!next.done) {
    const piece: string[] = [];
    for (; !next.done && piece.length < CALLS_PER_WRITE; next = calls.next()) piece.push(item(next.value));
    text += first ? piece.join(",") : `,${piece.join(",")}`;
    first = false;
    write(text);
    text = "";
    await drained();
  }
  write(`${indent ? `\n${" ".repeat(indent)}` : ""}${whole.slice(at + empty.length - 1)}\n`);
}
