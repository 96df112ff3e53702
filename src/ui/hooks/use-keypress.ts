import { useInput, useStdin, type Key } from "ink";
import { useCallback, useEffect, useLayoutEffect, useRef } from "react";

/** A key handler that also sees the raw bytes of the key. */
export type KeypressHandler = (input: string, key: Key, raw: string) => void;

/**
 * Ink's `useInput`, plus the raw bytes of each key, and without its subscription churn.
 *
 * Ink folds Backspace and forward Delete into one `key.delete`, and a focused terminal pane wants
 * the exact bytes; the raw sequence comes from Ink's own input event, emitted just before the
 * `useInput` handlers run.
 *
 * `useInput` re-subscribes in a passive effect whenever its handler or `isActive` changes, so a key
 * typed right after a focus change could reach the old handler or none. Here the subscription is
 * made once and always calls the handler of the latest committed render. Whether the hook is
 * active is read when the key arrives, before any handler runs: a key that moves the focus (Enter
 * on a queued message) is never handled again by the component it moved the focus to.
 */
export function useKeypress(handler: KeypressHandler, options: { isActive?: boolean } = {}): void {
  const { internal_eventEmitter: emitter } = useStdin();
  const raw = useRef("");
  const activeAtKey = useRef(false);
  const latest = useRef({ handler, active: options.isActive !== false });
  useLayoutEffect(() => {
    latest.current = { handler, active: options.isActive !== false };
  });
  // Prepended, so every hook's capture runs before any key handler of the same event.
  useEffect(() => {
    const capture = (data: string) => {
      raw.current = data;
      activeAtKey.current = latest.current.active;
    };
    emitter?.prependListener("input", capture);
    return () => {
      emitter?.off("input", capture);
    };
  }, [emitter]);
  const dispatch = useCallback((input: string, key: Key) => {
    if (activeAtKey.current) latest.current.handler(input, key, raw.current);
  }, []);
  useInput(dispatch);
}
