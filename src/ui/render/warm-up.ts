import type { SessionState, TerminalView } from "../../session/state.js";
import { dividerRows, userRows } from "./item-rows.js";
import { markdownRows } from "./markdown-rows.js";
import { renderLibs } from "./render-libs.js";

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
 * One step per expression of marked's GFM rules (the ones conch lexes with): each runs twice on a
 * one-letter string. V8 compiles an expression when it first runs and compiles it again to machine
 * code on the second run; marked's largest (lheading, paragraph) take 10-20 ms each here, and a first
 * lex pays for all of them in one task (30-150 ms on a 2-core machine).
 */
function lexerSteps(): (() => void)[] {
  const { block, inline } = renderLibs().Lexer.rules;
  const rules = [...Object.values(block.gfm), ...Object.values(inline.gfm)].filter((r): r is RegExp => r instanceof RegExp);
  return rules.map((rule) => () => {
    const at = rule.lastIndex;
    rule.exec("x");
    rule.exec("x");
    rule.lastIndex = at;
  });
}

/**
 * What the warm-up does, a task each: marked's expressions, then sample messages whose rows are
 * thrown away. Without it the first message drawn pays for compiling marked's lexer, the wrapper
 * and the highlighter in one task: the agent's first answer, or a resumed transcript's first frame.
 */
export function warmUpSteps(): (() => unknown)[] {
  return [
    ...lexerSteps(),
    () => dividerRows("user", false, 80),
    () => userRows("a prompt as the person typed it", false, 80, false),
    ...SAMPLES.flatMap((sample) => [() => markdownRows(sample, 80), () => markdownRows(sample, 80, { live: true, memo: {} })]),
  ];
}

/**
 * Runs the warm-up's steps once the transcript's libraries are loaded, each in a task of its own.
 * Before each step it asks `proceed`; a no stops it there, and the returned function goes on from that step.
 */
export function warmRenderers(schedule: Schedule = (step) => void setTimeout(step, 0), proceed: () => boolean = () => true): () => void {
  const steps = warmUpSteps();
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
