import { useEffect, useRef } from "react";
import { safeText } from "../../text/terminal-safe.js";
import { paint } from "../render/style.js";
import { wrapRows } from "../render/text.js";
import type { Panel } from "../shell/shell-state.js";

/**
 * A panel too long for the screen (/help, a long /sessions) is printed into the scrollback, whole,
 * where the terminal scrolls it, instead of a box that hides its end. True while the panel shown
 * is such a one (the app then draws no box for it).
 */
export function usePrintedPanel(panel: Panel | null, maxLines: number, width: number, write: (data: string) => void): boolean {
  const printed = useRef<Panel | null>(null);
  const tooLong = panel !== null && panel.lines.length > maxLines;
  useEffect(() => {
    if (!panel || !tooLong || printed.current === panel) return;
    printed.current = panel;
    const rule = paint("─".repeat(Math.max(1, width)), { dim: true });
    const rows = panel.lines.flatMap((line) => wrapRows(safeText(line), width));
    write(`${["", rule, ...rows, rule].join("\n")}\n`);
  }, [panel, tooLong, width, write]);
  return tooLong;
}
