import { useMemo, type Dispatch } from "react";
import type { SessionState } from "../../session/state.js";
import { findHits, hitKey, type SearchHit } from "../search/transcript-search.js";
import type { SearchState, ShellAction } from "../shell/shell-state.js";
import { PASTE_END, PASTE_START } from "../tty/key-reads.js";
import { useKeypress } from "./use-keypress.js";
import { commandFor } from "../shell/key-bindings.js";

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
      // The shell's search commands (the hits, leaving) took their keys before this handler.
      if (!opts.open) return false;
      const command = commandFor("search", input, key, raw);
      const step = Math.max(1, Math.floor(opts.paneRows / 2));
      if (command === "scroll-search") dispatch({ type: "search-scrolled", by: key.pageUp ? -step : step });
      else if (command !== "edit-search") return false;
      // Relative to the query as it is when the key is handled: keys can come faster than renders.
      else if (key.backspace || key.delete) dispatch({ type: "search-typed", keys: "\x7f" });
      else if (key.ctrl) dispatch({ type: "search-edited", query: "" });
      else if (raw !== PASTE_START && raw !== PASTE_END) dispatch({ type: "search-typed", keys: input });
      return true;
    },
    { isActive: opts.active },
  );
}
