import React, { createContext, useCallback, useContext, useEffect, useLayoutEffect, useRef } from "react";
import { useInput, useStdin, type Key } from "ink";

/**
 * A key handler: the key as Ink parses it, plus the raw bytes Ink read for it. It returns true when
 * it took the key, and the handlers after it never see it; anything else passes the key on.
 */
export type KeypressHandler = (input: string, key: Key, raw: string) => boolean | void;

/**
 * Who sees a key first. Handlers run from the highest priority down; within one priority, the one
 * mounted last runs first (a view opened over another takes the keys before it).
 */
export const KeyPriority = {
  /** The shell's own commands from the key table, and Ctrl-C wherever the keys are (`useShell`). */
  shell: 200,
  /** The view that has the focus (`focusOf`): the input, a prompt, the queue, the search, a pane. */
  focused: 100,
} as const;

/** Options of `useKeypress`. */
export interface KeypressOptions {
  /** Whether the handler takes keys now; read when each key arrives, before any handler runs. */
  isActive?: boolean;
  /** `KeyPriority.focused` unless told. */
  priority?: number;
}

interface Subscriber {
  handler: KeypressHandler;
  active: boolean;
  priority: number;
  /** Mount order, for ties. */
  seq: number;
}

interface Dispatcher {
  add(s: Subscriber): () => void;
  nextSeq(): number;
}

const KeypressContext = createContext<Dispatcher | null>(null);

/**
 * conch's one keypress dispatcher, and its one `useInput`: every key of the Ink tree below it goes
 * to the `useKeypress` handlers, by priority, until one takes it. The App and AttachApp put it at
 * their root.
 *
 * Each key is one dispatch, and which handlers are active is fixed when it arrives: a key that moves
 * the focus (Enter on a queued message) is never handled again by the view it moved the focus to.
 * Keys of one read arrive before React draws, so handlers see the props of the last committed
 * render: state that keys change faster than renders (the editor's text, a form) is read through a
 * ref or a store, not from props.
 */
export function KeypressProvider({ children }: { children: React.ReactNode }): React.ReactElement {
  const { internal_eventEmitter: emitter } = useStdin();
  const subscribers = useRef(new Set<Subscriber>());
  const seq = useRef(0);
  const raw = useRef("");
  const dispatcher = useRef<Dispatcher>({
    add: (s) => {
      subscribers.current.add(s);
      return () => void subscribers.current.delete(s);
    },
    nextSeq: () => ++seq.current,
  });
  // Ink's `useInput` hands out the parsed key but not the bytes read for it, which a focused pane
  // wants exactly (Ink folds Backspace and forward Delete into one `key.delete`): the raw sequence
  // comes from Ink's own input event, captured before Ink's parse runs.
  useEffect(() => {
    const capture = (data: string) => void (raw.current = data);
    emitter?.prependListener("input", capture);
    return () => void emitter?.off("input", capture);
  }, [emitter]);
  const dispatch = useCallback((input: string, key: Key) => {
    const order = [...subscribers.current].filter((s) => s.active).sort((a, b) => b.priority - a.priority || b.seq - a.seq);
    for (const s of order) if (s.handler(input, key, raw.current) === true) return;
  }, []);
  useInput(dispatch);
  return <KeypressContext.Provider value={dispatcher.current}>{children}</KeypressContext.Provider>;
}

/**
 * Takes keys from the `KeypressProvider` above: `handler` sees every key while `isActive`, unless a
 * handler of a higher priority (or a later one of the same) took it first. The subscription is made
 * once; the handler, `isActive` and the priority of the latest committed render are the ones used,
 * so a key typed right after a focus change never reaches the old handler.
 */
export function useKeypress(handler: KeypressHandler, options: KeypressOptions = {}): void {
  const dispatcher = useContext(KeypressContext);
  if (!dispatcher) throw new Error("useKeypress needs a KeypressProvider above it (the App and AttachApp have one at their root)");
  const me = useRef<Subscriber | null>(null);
  me.current ??= { handler, active: false, priority: KeyPriority.focused, seq: dispatcher.nextSeq() };
  useLayoutEffect(() => {
    Object.assign(me.current!, { handler, active: options.isActive !== false, priority: options.priority ?? KeyPriority.focused });
  });
  useLayoutEffect(() => {
    const s = me.current!;
    return dispatcher.add(s);
  }, [dispatcher]);
}
