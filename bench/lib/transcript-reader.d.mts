// Types for the bench's transcript reader (plain ESM), so its test is type-checked.

/** What the reader looks for: `landmarks` in this order, then `marker` exactly once. */
export interface TranscriptMarks {
  landmarks: string[];
  marker: string;
}

export class TranscriptReader {
  constructor(marks: TranscriptMarks);
  addFinal(rows: string[]): void;
  progress(viewport?: string[]): { landmarks: number; of: number; markers: number; markersAfterLast: number };
  whole(viewport?: string[]): boolean;
}

export function wholeTranscript(rows: string[], marks: TranscriptMarks): boolean;

export function wholeOnScreen(
  reader: TranscriptReader,
): (
  lines: string[],
  run: { term: { buffer: { active: { baseY: number; getLine(y: number): { translateToString(trim: boolean): string } | undefined } } } },
) => boolean;

export function landmarksOf(turns: { prompt: string; heading?: string }[]): string[];
