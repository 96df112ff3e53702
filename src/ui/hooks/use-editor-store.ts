import { useState } from "react";
import { editorReducer, initialEditorState, type EditorAction, type EditorState } from "../editor/editor-state.js";

/**
 * The input editor's state outside React: readable at once (keys can come faster than renders),
 * and drawn by the editor alone. A key changes what the editor shows and nothing else the App
 * draws, so the editor subscribes (`InputEditor`) and a key re-renders it, not the App.
 */
export class EditorStore {
  private state: EditorState;
  private readonly listeners = new Set<() => void>();

  constructor(start: EditorState = initialEditorState()) {
    this.state = start;
  }

  /** The buffer as of now. */
  readonly read = (): EditorState => this.state;

  readonly dispatch = (action: EditorAction): void => {
    const next = editorReducer(this.state, action);
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  };

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
}

/** The App's editor store, made once. */
export function useEditorStore(start?: EditorState): EditorStore {
  const [store] = useState(() => new EditorStore(start));
  return store;
}
