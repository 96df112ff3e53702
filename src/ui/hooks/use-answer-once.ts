import { useCallback, useMemo, useRef } from "react";

/** A prompt's guard against a second answer to the same ask. */
export interface AnswerOnce {
  /** Whether `ask` has an answer on its way. */
  answered(ask: unknown): boolean;
  /** Runs `answer` unless `ask` has one already; true when it ran. */
  answer(ask: unknown, answer: () => unknown): boolean;
}

const NONE = Symbol("none");

/**
 * The one "answer once" rule of the prompts a person answers (permission, question, login, undo):
 * a held or pasted key can arrive again before the answered ask leaves the props, and only the
 * first answer goes out. An ask is what identifies it (a request's key, the plan shown). An answer
 * that returns a promise frees its ask when the promise settles, so an ask that is still up
 * afterwards (a login that failed) can be answered again.
 */
export function useAnswerOnce(): AnswerOnce {
  const pending = useRef<unknown>(NONE);
  const answered = useCallback((ask: unknown) => pending.current === ask, []);
  const answer = useCallback((ask: unknown, run: () => unknown) => {
    if (pending.current === ask) return false;
    pending.current = ask;
    const result = run();
    if (result instanceof Promise)
      void result
        .catch(() => undefined)
        .finally(() => {
          if (pending.current === ask) pending.current = NONE;
        });
    return true;
  }, []);
  return useMemo(() => ({ answered, answer }), [answered, answer]);
}
