import React, { useMemo, useRef } from "react";
import { Box, Text, useInput } from "ink";
import type { UndoPlan } from "../../orchestrator/undo/turn-undo.js";
import { clipRequestRows } from "../render/request-rows.js";
import { undoHint, undoRows } from "../render/undo-rows.js";
import { color } from "../render/theme.js";

/** Props of the undo prompt. */
export interface UndoPromptProps {
  plan: UndoPlan;
  width: number;
  /** Rows the prompt may take: the diff is cut so the hint stays on screen. */
  maxRows: number;
  isActive: boolean;
  /** true: put the files back; false: leave them. */
  onAnswer(apply: boolean): void;
}

/** What `/undo` will put back, as diffs, and the question: y puts the files back, n or Esc leaves them. */
export function UndoPrompt({ plan, width, maxRows, isActive, onAnswer }: UndoPromptProps): React.ReactElement {
  const inner = Math.max(10, width - 4);
  const rows = useMemo(() => undoRows(plan, inner), [plan, inner]);
  const answered = useRef(false);
  useInput(
    (input, key) => {
      if (answered.current) return;
      const yes = plan.files.length > 0 && (input === "y" || input === "Y");
      const no = key.escape || input === "n" || input === "N";
      if (!yes && !no) return;
      answered.current = true;
      onAnswer(yes);
    },
    { isActive },
  );
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={color("warning")} paddingX={1}>
      <Text>{clipRequestRows(rows, maxRows - 3).join("\n")}</Text>
      <Text dimColor>{undoHint(plan)}</Text>
    </Box>
  );
}
