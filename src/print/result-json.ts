/** How many calls of the result's list go into one write. */
const CALLS_PER_WRITE = 2000;

/**
 * Writes `result` and a newline, the same bytes as `JSON.stringify(result, null, indent)`, with its
 * `toolCalls` list in pieces of a few thousand calls: the result of a run of 150,000 calls is not
 * one 20 MB string (and its copy for the pipe) at the end of the run. After each piece it waits for
 * `drained` (stdout's buffer below its mark): a pipe read slower than conch writes would otherwise
 * hold the whole result in memory, queued, at the run's peak.
 */
export async function writeResultJson(
  result: { toolCalls: readonly object[] },
  indent: 0 | 2,
  write: (text: string) => void,
  drained: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  const calls = result.toolCalls;
  const space = indent || undefined;
  const whole = JSON.stringify({ ...result, toolCalls: [] }, null, space);
  // A key is quoted with nothing before its colon; inside a string value its quotes would be escaped.
  const empty = indent ? `\n${" ".repeat(indent)}"toolCalls": []` : `"toolCalls":[]`;
  const at = whole.indexOf(empty);
  if (calls.length === 0 || at < 0) {
    write(`${JSON.stringify(result, null, space)}\n`);
    return;
  }
  // Each call sits one level deeper than the list: its lines are indented twice.
  const pad = `\n${" ".repeat(2 * indent)}`;
  const item = indent ? (c: object) => `${pad}${JSON.stringify(c, null, indent).replace(/\n/g, pad)}` : (c: object) => JSON.stringify(c);
  let text = `${whole.slice(0, at + empty.length - 1)}`;
  for (let i = 0; i < calls.length; i += CALLS_PER_WRITE) {
    const piece = calls
      .slice(i, i + CALLS_PER_WRITE)
      .map(item)
      .join(",");
    text += i === 0 ? piece : `,${piece}`;
    write(text);
    text = "";
    await drained();
  }
  write(`${indent ? `\n${" ".repeat(indent)}` : ""}${whole.slice(at + empty.length - 1)}\n`);
}
