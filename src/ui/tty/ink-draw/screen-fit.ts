/** What Ink's renderer (ink/build/renderer.js) gives for a frame: the live region's text and its height in rows. */
export interface InkFrame {
  output: string;
  outputHeight: number;
}

/**
 * The frame cut to fit the screen: at most `rows - 1` rows, its bottom ones (the editor, the
 * status lines) kept. Ink (ink/build/ink.js) takes a frame that reaches the terminal's height for
 * a fullscreen app and clears the whole terminal, scrollback included, before the next one; conch
 * prints its transcript into that scrollback itself, so such a frame must never be written. The
 * chrome is only measured after a frame is drawn and can be taller than a small terminal (a
 * permission prompt): cut here, where Ink writes the frame, nothing can make it reach the bottom
 * row. The rows cut are its top ones: the live region's, printed whole to the scrollback once they
 * settle, or the top of a chrome taller than the screen. (conch places no cursor in the frame.)
 */
export function fitScreen<T extends InkFrame>(frame: T, rows: number | undefined): T {
  if (!rows || frame.outputHeight < rows) return frame;
  const keep = Math.max(1, rows - 1);
  const lines = frame.output.split("\n");
  return { ...frame, output: lines.slice(lines.length - keep).join("\n"), outputHeight: Math.min(keep, lines.length) };
}
