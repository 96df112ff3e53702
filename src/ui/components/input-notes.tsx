import React from "react";
import { Box, Text } from "ink";
import { color } from "../render/theme.js";
import { binding, footer } from "../shell/key-bindings.js";

/** Props of the notes under the input. */
export interface InputNotesProps {
  notes: string[];
  ctrlCArmed: boolean;
  /** The input holds a queued message being edited: what Enter and Esc do now. */
  editingIndex: number;
  width: number;
}

/** Dim lines under the input: how attachments went, the Ctrl-C warning, what editing a queued message means. */
export function InputNotes({ notes, ctrlCArmed, editingIndex, width }: InputNotesProps): React.ReactElement | null {
  if (!notes.length && !ctrlCArmed && editingIndex < 0) return null;
  return (
    <Box flexDirection="column" width={width}>
      {editingIndex >= 0 ? (
        <Text dimColor wrap="truncate-end">{`  editing queued message ${editingIndex + 1}: ${footer([
          ["send", "saves"],
          ["cancel", "discards the edit"],
        ])}`}</Text>
      ) : null}
      {notes.map((n, i) => (
        <Text key={i} dimColor wrap="truncate-end">
          {`  ${n}`}
        </Text>
      ))}
      {ctrlCArmed ? <Text color={color("warning")}>{`  press ${binding("clear-input").keys} again to quit`}</Text> : null}
    </Box>
  );
}
