/** How print mode reports a run: streamed text, one JSON result, or JSON lines. */
export const OUTPUT_FORMATS = ["text", "json", "stream-json"] as const;

/** One of print mode's output formats (`--output-format`). */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
