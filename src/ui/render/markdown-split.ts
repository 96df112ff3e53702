/**
 * Splits streaming markdown into a stable prefix (blocks that later text cannot change) and the
 * still-open tail. The cut is after the last blank line that is not inside a fenced code block; the
 * line still being written never counts, since more text may land on it.
 */
export function splitStreamingMarkdown(text: string): { stable: string; tail: string } {
  let fence: string | null = null;
  let cut = 0;
  let pos = 0;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i];
    pos += line.length + 1;
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    if (line.trim() === "") cut = pos;
  }
  return { stable: text.slice(0, cut), tail: text.slice(cut) };
}
