import React, { useMemo } from "react";
import { Box, Text } from "ink";
import { useAnswerOnce } from "../hooks/use-answer-once.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { commandFor, footer } from "../shell/key-bindings.js";
import type { UndoPlan } from "../../session/undo-plan.js";
import { clipRequestRows } from "../render/request-rows.js";
import { undoRows } from "../render/undo-rows.js";
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
  const once = useAnswerOnce();
  useKeypress(
    (input, key, raw) => {
      if (commandFor("undo", input, key, raw) !== "confirm-undo") return false;
      const apply = input === "y" || input === "Y";
      if (apply && plan.files.length === 0) return true;
      once.answer(plan, () => onAnswer(apply));
      return true;
    },
    { isActive },
  );
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={color("warning")} paddingX={1}>
      <Text>{clipRequestRows(rows, maxRows - 3).join("\n")}</Text>
      <Text dimColor>{undoFooter(plan)}</Text>
    </Box>
  );
}

/** The prompt's last line: what y and n do. */
function undoFooter(plan: UndoPlan): string {
  const n = plan.files.length;
  if (n === 0) return footer([["confirm-undo", "close", [2]]]);
  const files = n === 1 ? "this file" : `these ${n} files`;
  const deletes = plan.files.filter((f) => f.action === "delete").length;
  const deleted = deletes ? ` (${deletes === 1 ? "one is" : `${deletes} are`} deleted)` : "";
  return footer([
    ["confirm-undo", plan.redo ? `apply the turn's changes to ${files} again` : `put ${files} back${deleted}`, [0]],
    ["confirm-undo", `leave ${n === 1 ? "it" : "them"}`, [1, 2]],
  ]);
}
