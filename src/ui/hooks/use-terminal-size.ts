import { useStdout } from "ink";
import { useEffect, useState } from "react";

/** Rows assumed when the output is not a terminal (tests, pipes). */
export const DEFAULT_ROWS = 30;
const DEFAULT_COLUMNS = 80;

/** The terminal's size, updated on resize. */
export function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || DEFAULT_COLUMNS, rows: stdout.rows || DEFAULT_ROWS });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => {
      const next = read();
      setSize((prev) => (prev.columns === next.columns && prev.rows === next.rows ? prev : next));
    };
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stdout]);
  return size;
}
