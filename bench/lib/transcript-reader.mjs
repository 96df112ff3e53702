// When is a resumed transcript really there? Not when its last line is first drawn: a long backlog
// is written to the scrollback in slices while a live preview shows its newest rows at the bottom,
// so the end marker is on screen seconds before the rest is. The whole transcript is there when
// every landmark (each prompt, each answer's heading: text the bench knows is in the transcript)
// has been seen in order, and the end marker exactly once, after the last landmark. A preview shows
// the end while the landmarks before it are still missing, so it does not count.
//
// Text is compared with its whitespace collapsed and rows joined by a space, so a prompt that
// wraps over two rows still reads as one.

const norm = (row) => row.replace(/\s+/g, " ").trim();
/** A landmark keeps an edge space: "step 12 " must not match the start of "step 123". */
const normLandmark = (text) => text.replace(/\s+/g, " ");

/**
 * Reads a screen's rows in order: `addFinal` takes rows that can no longer change (scrolled above
 * the viewport), `whole(viewport)` says whether those and the rows now on screen hold the whole
 * transcript. Incremental, so a bench can ask after every write of a 100,000-row session.
 */
export class TranscriptReader {
  /** `landmarks`: strings that appear in the transcript in this order; `marker`: ends the last answer. */
  constructor({ landmarks, marker }) {
    this.landmarks = landmarks.map(normLandmark);
    this.marker = marker;
    this.keep = Math.max(0, ...this.landmarks.map((l) => l.length));
    this.state = { text: "", next: 0, markers: 0, markersAfter: 0 };
  }

  /** Rows that will not change again, in order. */
  addFinal(rows) {
    for (const row of rows) this.#feed(this.state, row);
  }

  /** How far the rows so far and `viewport` (the rows on screen now) get: landmarks found, end markers seen. */
  progress(viewport = []) {
    const s = { ...this.state };
    for (const row of viewport) this.#feed(s, row);
    return { landmarks: s.next, of: this.landmarks.length, markers: s.markers, markersAfterLast: s.markersAfter };
  }

  /** Every landmark in order and the end marker exactly once, after the last of them. */
  whole(viewport = []) {
    const p = this.progress(viewport);
    return p.landmarks === p.of && p.markers === 1 && p.markersAfterLast === 1;
  }

  #feed(s, row) {
    const text = norm(row);
    if (!text) return;
    s.text = s.text ? `${s.text} ${text}` : text;
    while (s.next < this.landmarks.length) {
      const at = s.text.indexOf(this.landmarks[s.next]);
      if (at < 0) break;
      s.text = s.text.slice(at + this.landmarks[s.next].length);
      s.next++;
    }
    // A landmark may start in this row and end in the next: keep as much as the longest one.
    if (s.text.length > this.keep) s.text = s.text.slice(-this.keep);
    const n = text.split(this.marker).length - 1;
    s.markers += n;
    if (s.next === this.landmarks.length) s.markersAfter += n;
  }
}

/** Whether `rows` (a whole screen, scrollback first) hold the whole transcript: see `TranscriptReader`. */
export function wholeTranscript(rows, { landmarks, marker }) {
  return new TranscriptReader({ landmarks, marker }).whole(rows);
}

/**
 * A `TuiRun.waitFor` test that is true once the whole transcript is in the terminal: the rows that
 * scrolled above the viewport are read once each as they do, the viewport every time.
 */
export function wholeOnScreen(reader) {
  let final = 0;
  return (lines, run) => {
    const buf = run.term.buffer.active;
    const rows = [];
    for (; final < buf.baseY; final++) rows.push(buf.getLine(final)?.translateToString(true) ?? "");
    reader.addFinal(rows);
    return reader.whole(lines);
  };
}

/** The landmarks of a generated session (`lib/session-gen.mjs`): each prompt, and each answer's heading when it has one. */
export function landmarksOf(turns) {
  const out = [];
  for (const t of turns) {
    out.push(t.prompt);
    if (t.heading) out.push(`${t.heading} `);
  }
  return out;
}
