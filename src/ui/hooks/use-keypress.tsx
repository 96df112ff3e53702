import React, { createContext, useCallback, useContext, useEffect, useLayoutEffect, useReducer, useRef } from "react";
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

/** A key as the provider received it, with its bytes. */
interface WaitingKey {
  input: string;
  key: Key;
  raw: string;
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
 * The keys Ink parses from one read (tmux's send-keys, `↑` then `d`) would all arrive before React
 * draws, so the ones after a key that moved the focus went to the view that had it before (the
 * input). So the keys after a key wait until React has committed what that key changed, and go to
 * the handlers of that render. Text of one read is still one key: state that
 * keys change faster than renders (the editor's text, a form) is read through a ref or a store.
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
  // Keys that came after a key whose render is not committed yet: they wait for it.
  const waiting = useRef<WaitingKey[] | null>(null);
  const [commits, committed] = useReducer((n: number) => n + 1, 0);
  const deliver = useCallback((k: WaitingKey) => {
    if (waiting.current) {
      waiting.current.push(k);
      return;
    }
    const order = [...subscribers.current].filter((s) => s.active).sort((a, b) => b.priority - a.priority || b.seq - a.seq);
    for (const s of order) if (s.handler(k.input, k.key, k.raw) === true) break;
    // Any key, not only one a handler says it took: the input takes keys without saying so.
    waiting.current = [];
    committed();
  }, []);
  // Children's layout effects (each subscriber's `active`) have run: the keys that waited go to the
  // handlers of this render, in a microtask once the commit is over (an update made inside it would
  // be a nested one, which React caps), still before any timer or the next read.
  useLayoutEffect(() => {
    if (!waiting.current?.length) {
      waiting.current = null;
      return;
    }
    let live = true;
    queueMicrotask(() => {
      if (!live) return;
      const keys = waiting.current ?? [];
      waiting.current = null;
      for (const k of keys) deliver(k);
    });
    return () => void (live = false);
  }, [commits, deliver]);
  const dispatch = useCallback((input: string, key: Key) => deliver({ input, key, raw: raw.current }), [deliver]);
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
