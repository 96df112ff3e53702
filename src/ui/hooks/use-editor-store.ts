import { useCallback, useRef, useState } from "react";
import { editorReducer, initialEditorState, type EditorAction, type EditorState } from "../editor/editor-state.js";

/** The input editor's state, readable at once (before React renders it), and its dispatch. */
export interface EditorStore {
  editor: EditorState;
  read: () => EditorState;
  dispatch: (a: EditorAction) => void;
}

/** An editor whose latest state is readable at once, before React renders it: keys can come faster than renders. */
export function useEditorStore(start: EditorState = initialEditorState()): EditorStore {
  const ref = useRef<EditorState>(start);
  const [, force] = useState(0);
  const dispatch = useCallback((action: EditorAction) => {
    const next = editorReducer(ref.current, action);
    if (next === ref.current) return;
    ref.current = next;
    force((n) => n + 1);
  }, []);
  const read = useCallback(() => ref.current, []);
  return { editor: ref.current, read, dispatch };
}
