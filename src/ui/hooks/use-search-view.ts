import { useMemo, type Dispatch } from "react";
import type { SessionState } from "../../session/state.js";
import { findHits, hitKey, type SearchHit } from "../search/transcript-search.js";
import { shellCommandFor } from "../shell/key-bindings.js";
import type { SearchState, ShellAction } from "../shell/shell-state.js";
import { PASTE_END, PASTE_START } from "../tty/key-reads.js";
import { useKeypress } from "./use-keypress.js";

/** Where the search view's query occurs, and which hit it shows (-1: none). */
export function useSearchHits(state: SessionState, search: SearchState | null): { hits: SearchHit[]; index: number } {
  const query = search?.query;
  const hits = useMemo(() => (query === undefined ? [] : findHits(state, query)), [state, query]);
  const selected = search?.selected ? hits.findIndex((h) => hitKey(h) === search.selected) : -1;
  // A hit that was not chosen, or is gone, leaves the newest one shown.
  return { hits, index: selected >= 0 ? selected : hits.length - 1 };
}

/** The search view's own keys: what is searched for is typed here; PageUp/PageDown scroll the item shown. */
export function useSearchKeys(opts: { active: boolean; open: boolean; paneRows: number; dispatch: Dispatch<ShellAction> }): void {
  const { dispatch } = opts;
  useKeypress(
    (input, key, raw) => {
      if (!opts.open || shellCommandFor("search", input, key, raw)) return;
      const step = Math.max(1, Math.floor(opts.paneRows / 2));
      if (key.pageUp) return dispatch({ type: "search-scrolled", by: -step });
      if (key.pageDown) return dispatch({ type: "search-scrolled", by: step });
      // Relative to the query as it is when the key is handled: keys can come faster than renders.
      if (key.backspace || key.delete) return dispatch({ type: "search-typed", keys: "\x7f" });
      if (key.ctrl && input === "u") return dispatch({ type: "search-edited", query: "" });
      if (raw === PASTE_START || raw === PASTE_END || key.ctrl || key.meta || key.tab || !input) return;
      dispatch({ type: "search-typed", keys: input });
    },
    { isActive: opts.active },
  );
}
