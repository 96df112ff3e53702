/** How many calls of the result's list go into one write. */
const CALLS_PER_WRITE = 2000;

/**
 * Writes `result` and a newline, the same bytes as `JSON.stringify(result, null, indent)`, with its
 * `toolCalls` list in pieces of a few thousand calls: the result of a run of 150,000 calls is not
 * one 20 MB string (and its copy for the pipe) at the end of the run. After each piece it waits for
 * `drained` (stdout's buffer below its mark): a pipe read slower than conch writes would otherwise
 * hold the whole result in memory, queued, at the run's peak. `toolCalls` may be any iterable (a
 * run's spooled calls): it is read once, a piece at a time.
 */
export async function writeResultJson(
  result: { toolCalls: Iterable<object> },
  indent: 0 | 2,
  write: (text: string) => void,
  drained: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  const calls = result.toolCalls[Symbol.iterator]();
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
  const item = indent ? (c: object) => `${pad}${JSON.stringify(c, null, indent).replace(/\n/g, pad)}` : (c: object) => JSON.stringify(c);
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
