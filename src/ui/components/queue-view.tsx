import React from "react";
import { Box, Text } from "ink";
import type { QueuedMessage } from "../../session/state.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { commandFor, footer } from "../shell/key-bindings.js";
import { color } from "../render/theme.js";
import { safeLine } from "../../text/terminal-safe.js";

/** Props of the queue view. */
export interface QueueViewProps {
  queue: QueuedMessage[];
  /** The highlighted message while the queue has the keys; null otherwise. */
  selected: number | null;
  /** The message being edited in the input, if any. */
  editingId: string | null;
  width: number;
  /** Messages listed at most; the rest are counted (the list scrolls with the selection). */
  maxShown?: number;
  /** The queue has the keys (its bindings in the key table). */
  isActive: boolean;
  onSelect(index: number): void;
  onEdit(message: QueuedMessage): void;
  onRemove(message: QueuedMessage): void;
  /** Give the keys back to the input. */
  onLeave(): void;
  /** What the queue waits for, as the hint says it; "the turn ends" unless told. */
  waitsFor?: string;
}

function oneLine(text: string, max: number): string {
  const lines = text.split("\n");
  const first = lines[0] + (lines.length > 1 ? ` (+${lines.length - 1} lines)` : "");
  return first.length > max ? `${first.slice(0, Math.max(0, max - 1))}…` : first;
}

/** Messages waiting for the turn to end, numbered in send order, with keys to edit or remove them. */
export function QueueView(props: QueueViewProps): React.ReactElement | null {
  const { queue, selected, editingId, width, isActive } = props;
  useKeypress(
    (input, key, raw) => {
      const index = selected ?? queue.length - 1;
      const message = queue[index];
      const command = commandFor("queue", input, key, raw);
      if (command === "leave-queue" || !message) props.onLeave();
      else if (command === "move-selection") {
        if (key.upArrow) props.onSelect(Math.max(0, index - 1));
        else if (index + 1 < queue.length) props.onSelect(index + 1);
        else props.onLeave();
      } else if (command === "edit-queued") props.onEdit(message);
      else if (command === "remove-queued") props.onRemove(message);
      else return false;
      return true;
    },
    { isActive },
  );
  if (queue.length === 0) return null;
  const textWidth = Math.max(10, width - 6);
  const max = Math.max(1, props.maxShown ?? queue.length);
  const focusIndex = isActive && selected !== null ? selected : queue.length - 1;
  const start = Math.max(0, Math.min(focusIndex - max + 1, queue.length - max));
  const shown = queue.slice(start, start + max);
  const after = queue.length - start - shown.length;
  return (
    <Box flexDirection="column" width={width}>
      {start > 0 ? <Text dimColor>{`  … ${start} more before`}</Text> : null}
      {shown.map((m, j) => {
        const i = start + j;
        const isSelected = isActive && i === selected;
        const editing = m.id === editingId;
        return (
          <Text key={m.id} wrap="truncate-end">
            <Text color={isSelected ? color("accent") : undefined}>{isSelected ? "› " : "  "}</Text>
            <Text dimColor={!isSelected}>{`${i + 1}. `}</Text>
            <Text dimColor={!isSelected && !editing} bold={isSelected} italic={editing}>
              {safeLine(oneLine(m.text, textWidth))}
            </Text>
            {editing ? <Text color={color("warning")}>{"  (editing)"}</Text> : null}
          </Text>
        );
      })}
      {after > 0 ? <Text dimColor>{`  … ${after} more after`}</Text> : null}
      <Text dimColor wrap="truncate-end">
        {isActive
          ? `  ${footer(["move-selection", "edit-queued", "remove-queued", "leave-queue"])}`
          : `  queued: sent when ${props.waitsFor ?? "the turn ends"} · ${footer(["select-queued"])}`}
      </Text>
    </Box>
  );
}
