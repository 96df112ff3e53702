import { dividerRows, userRows } from "./item-rows.js";
import { markdownRows } from "./markdown-rows.js";

/**
 * Messages that take the row renderers through their usual paths: headings, inline styles, lists,
 * quotes, tables and a highlighted code block, whole and streaming.
 */
const SAMPLES = [
  "# A heading\n\nA paragraph with **bold**, *emphasis*, `code` and a [link](https://example.com).",
  "- one\n- two\n  1. nested\n\n> a quote\n\n---",
  "| a | b |\n| --- | --- |\n| 1 | 2 |",
  "```ts\nconst answer: number = 42; // the usual\n```",
];

/** How the next step waits: a macrotask, so a key typed meanwhile is read between steps. */
type Schedule = (step: () => void) => void;

/**
 * Draws a few sample messages once the transcript's libraries are loaded, each in a task of its own,
 * and throws the rows away. The first message drawn pays for compiling marked's lexer, the wrapper and
 * the highlighter (about 30 ms for the lexer alone), and without this the first message is the
 * agent's first answer, with a person waiting for it.
 */
export function warmRenderers(schedule: Schedule = (step) => void setTimeout(step, 0)): void {
  const steps: (() => unknown)[] = [
    () => dividerRows("user", false, 80),
    () => userRows("a prompt as the person typed it", false, 80, false),
    ...SAMPLES.flatMap((sample) => [() => markdownRows(sample, 80), () => markdownRows(sample, 80, { live: true, memo: {} })]),
  ];
  const next = (i: number) => {
    if (i >= steps.length) return;
    steps[i]();
    schedule(() => next(i + 1));
  };
  schedule(() => next(0));
}
