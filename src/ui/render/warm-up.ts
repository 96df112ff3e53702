import type { SessionState, TerminalView } from "../../session/state.js";
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
 * agent's first answer, with a person waiting for it. Before each step it asks `proceed`; a no stops
 * it there, and the returned function goes on from that step.
 */
export function warmRenderers(schedule: Schedule = (step) => void setTimeout(step, 0), proceed: () => boolean = () => true): () => void {
  const steps: (() => unknown)[] = [
    () => dividerRows("user", false, 80),
    () => userRows("a prompt as the person typed it", false, 80, false),
    ...SAMPLES.flatMap((sample) => [() => markdownRows(sample, 80), () => markdownRows(sample, 80, { live: true, memo: {} })]),
  ];
  let done = 0;
  let running = false;
  const next = () => {
    running = done < steps.length && proceed();
    if (!running) return;
    steps[done++]();
    schedule(next);
  };
  const goOn = () => {
    if (running || done >= steps.length) return;
    running = true;
    schedule(next);
  };
  goOn();
  return goOn;
}

/**
 * A terminal that printed this recently (event clock, ms) is taken to be printing still: the
 * warm-up would compete with its pane for the main thread, which reads and draws its output.
 */
const PRINTING_WITHIN_MS = 2000;

/**
 * Whether the warm-up may run now: nothing is on its way to the agent. A message sent while conch
 * starts goes out only after the session opens and the workspace's checkpoints are taken (git
 * steps whose callbacks wait for the event loop); the warm-up's compile work there put ~50 ms on
 * that prompt. So: idle with nothing queued, or a turn whose prompt is out (its start checkpoint is
 * logged, and the prompt follows it at once), waiting for the agent's answer. And no terminal is
 * printing: a flood in a pane started right after conch did paid the warm-up's ~150-350 ms of
 * compiling (marked's first lex is most of it) on the thread that reads and draws it.
 */
export function mayWarmUp(state: SessionState, now: number = Date.now()): boolean {
  if (state.queue.length) return false;
  if (Object.values(state.terminals).some((t) => printing(t, now))) return false;
  if (state.phase === "idle") return true;
  if (state.phase !== "prompting" || !state.currentTurnId) return false;
  return (state.checkpoints ?? []).some((c) => c.turnId === state.currentTurnId && c.stage === "start");
}

function printing(terminal: TerminalView, now: number): boolean {
  if (terminal.exited || terminal.history) return false;
  const last = terminal.lastAt ?? terminal.startedAt;
  return last !== undefined && now - last < PRINTING_WITHIN_MS;
}
