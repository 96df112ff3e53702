import { useEffect } from "react";
import { PROGRESS } from "../tty/terminal-features.js";

/**
 * Shows a running turn in the terminal's tab or title bar (OSC 9;4), for terminals that take it.
 * The sequence moves no cursor, so it goes straight out between frames; it is cleared when the
 * turn ends and when conch quits.
 */
export function useTerminalProgress(busy: boolean, write: (data: string) => void): void {
  useEffect(() => {
    if (!busy) return;
    write(PROGRESS.busy);
    return () => write(PROGRESS.done);
  }, [busy, write]);
}
