import React, { useRef } from "react";
import { Box, Text } from "ink";
import { safeLine } from "../../text/terminal-safe.js";
import { movedPicker, selectedItem, shownItems, typedPicker, type PickerState } from "../decisions/picker-state.js";
import type { PickerHandlers } from "../hooks/picker-handlers.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { color } from "../render/theme.js";
import { truncateRow } from "../render/text.js";
import { commandFor, footer } from "../shell/key-bindings.js";

/** Props of the picker. */
export interface PickerViewProps extends PickerHandlers {
  picker: PickerState;
  width: number;
  /** Rows the whole box may take; the list scrolls with the selection. */
  maxRows: number;
  isActive: boolean;
}

/** Rows of the box besides the entries: the border, the title, the filter, the footer. */
const FIXED_ROWS = 5;

/** A list to choose from (/model, /config): ↑↓ move, typing filters, Enter chooses, Esc closes. */
export function PickerView(props: PickerViewProps): React.ReactElement {
  const { picker, width, isActive } = props;
  // Keys read before the next render (↓ then Enter typed fast, one read) must act on the picker as
  // the keys before them left it, not on the one of the last render: they move this copy too.
  const latest = useRef<{ drawn: PickerState; keyed: PickerState | null }>({ drawn: picker, keyed: picker });
  if (latest.current.drawn !== picker) latest.current = { drawn: picker, keyed: picker };
  const type = (keyed: PickerState, text: string) => {
    latest.current.keyed = typedPicker(keyed, text);
    props.onType(text);
    return true;
  };
  useKeypress(
    (input, key, raw) => {
      const keyed = latest.current.keyed;
      if (!keyed) return false;
      const command = commandFor("picker", input, key, raw);
      if (command === "move-selection") {
        const by = key.upArrow ? -1 : 1;
        latest.current.keyed = movedPicker(keyed, by);
        props.onMove(by);
      } else if (command === "pick-choice") latest.current.keyed = props.onPick(keyed);
      else if (command === "close-picker") {
        latest.current.keyed = null;
        props.onClose();
      } else if (command === "filter-choices") {
        if (key.backspace || key.delete) return type(keyed, "\x7f");
        // Text and Enter in one read (tmux's send-keys, a paste): the text filters, each Enter chooses.
        input.split(/\r\n?|\n/).forEach((text, i) => {
          const now = latest.current.keyed;
          if (now && i > 0) latest.current.keyed = props.onPick(now);
          if (latest.current.keyed && text) type(latest.current.keyed, text);
        });
      } else return false;
      return true;
    },
    { isActive },
  );
  const shown = shownItems(picker);
  const selected = selectedItem(picker);
  const inner = Math.max(10, width - 4);
  const room = Math.max(1, props.maxRows - FIXED_ROWS);
  const at = Math.max(
    0,
    shown.findIndex((i) => i.id === selected?.id),
  );
  const start = Math.max(0, Math.min(at - Math.floor(room / 2), shown.length - room));
  const window = shown.slice(start, start + room);
  const counts = shown.length === picker.items.length ? `${shown.length}` : `${shown.length} of ${picker.items.length}`;
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={color("accent")} paddingX={1}>
      <Text wrap="truncate-end">
        <Text bold>{safeLine(picker.title)}</Text>
        <Text dimColor>{` · ${counts}${start > 0 ? ` · ${start} above` : ""}`}</Text>
      </Text>
      <Text wrap="truncate-end">
        <Text dimColor>{"filter: "}</Text>
        {picker.filter ? safeLine(picker.filter) : <Text dimColor>(type to filter)</Text>}
      </Text>
      {window.length === 0 ? <Text dimColor>nothing matches</Text> : null}
      {window.map((item) => {
        const isSelected = item.id === selected?.id;
        const mark = item.current ? "●" : "○";
        const detail = item.detail ? ` · ${safeLine(item.detail)}` : "";
        const row = truncateRow(`${mark} ${safeLine(item.label)}${detail}`, inner - 2);
        return (
          <Text key={item.id} wrap="truncate-end">
            <Text color={color("accent")}>{isSelected ? "› " : "  "}</Text>
            <Text bold={isSelected} color={isSelected ? color("accent") : undefined} dimColor={!isSelected && !item.current}>
              {row}
            </Text>
          </Text>
        );
      })}
      <Text dimColor wrap="truncate-end">
        {`${footer([["move-selection", "move"], "pick-choice", "filter-choices", "close-picker"])}${
          start + window.length < shown.length ? ` · ${shown.length - start - window.length} more below` : ""
        }`}
      </Text>
    </Box>
  );
}
