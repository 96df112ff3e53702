import type { Dispatch } from "react";
import type { SessionState } from "../../session/state.js";
import type { TerminalAccess } from "../../terminals/terminal-access.js";
import { ptyBytesFor } from "../tty/pty-keys.js";
import type { ShellAction, ShellState } from "../shell/shell-state.js";
import { PASTE_END, PASTE_START } from "../tty/key-reads.js";
import { useKeypress } from "./use-keypress.js";
import { commandFor } from "../shell/key-bindings.js";

/** The client terminals still running whose screens conch has: the panes Ctrl-T can focus, oldest first. */
export function runningClientTerminals(state: SessionState, access: TerminalAccess | undefined): string[] {
  if (!access) return [];
  return Object.values(state.terminals)
    .filter((t) => t.source === "client" && !t.exited && access.get(t.terminalId))
    .map((t) => t.terminalId);
}

/**
 * A focused terminal pane takes every key: its bindings in the key table (leave, scroll), and the
 * rest typed into its program.
 */
export function useTerminalPaneKeys(opts: {
  active: boolean;
  focus: ShellState["terminalFocus"];
  /** The pane Ctrl-T moves to, or undefined to leave. */
  next: () => string | undefined;
  terminals?: TerminalAccess;
  /** Rows the pane shows, for PageUp/PageDown steps. */
  paneRows: number;
  dispatch: Dispatch<ShellAction>;
}): void {
  const { focus, dispatch } = opts;
  useKeypress(
    (input, key, raw) => {
      if (!focus) return false;
      const command = commandFor("terminal", input, key, raw);
      const step = Math.max(1, Math.floor(opts.paneRows / 2));
      if (command === "leave-terminal") {
        // Esc leaves; Ctrl-T moves on to the next pane, and leaves after the last.
        const next = key.escape ? undefined : opts.next();
        dispatch(next ? { type: "terminal-focused", id: next } : { type: "terminal-left" });
      } else if (command === "scroll-terminal") dispatch({ type: "terminal-scrolled", by: key.pageUp ? step : -step });
      else if (raw !== PASTE_START && raw !== PASTE_END) {
        // `type-terminal`: every other key goes to the program, and the pane back to its bottom.
        opts.terminals?.write(focus.id, ptyBytesFor(input, key, raw));
        if (focus.scroll) dispatch({ type: "terminal-scrolled", by: -focus.scroll });
      }
      return true;
    },
    { isActive: opts.active },
  );
}
