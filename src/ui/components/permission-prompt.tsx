import React, { useMemo, useRef, useState } from "react";
import { Box, Text } from "ink";
import { useAnswerOnce } from "../hooks/use-answer-once.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { commandFor, footer } from "../shell/key-bindings.js";
import { safeLine } from "../../text/terminal-safe.js";
import { clipRequestRows, requestRows } from "../render/request-rows.js";
import type { RequestView } from "../render/request-view.js";
import { wrapRows } from "../render/text.js";
import { defaultOption, optionForKey, optionKeys } from "../decisions/permission-options.js";
import { color } from "../render/theme.js";

/** Props of the permission prompt. */
export interface PermissionPromptProps {
  /** What each pending request shows (`requestViewOf`), oldest first; the first is asked, the rest wait. */
  requests: RequestView[];
  width: number;
  /** Listens to keys only while active, so the input editor keeps them otherwise. */
  isActive: boolean;
  /** The user's choice for request `key`; null is never sent by keys (Esc belongs to the shell). */
  onAnswer(key: string, optionId: string | null): void;
  /** Rows the whole prompt may take: the request is cut so the options stay on screen. */
  maxRows?: number;
}

/** Cells of an option row before its name: the cursor and the keys. */
const OPTION_GUTTER = 7;

/** Shows the first pending permission request in full and answers it with a key or ↑/↓ + Enter. */
export function PermissionPrompt(props: PermissionPromptProps): React.ReactElement | null {
  const { requests, width, isActive, onAnswer } = props;
  const view = requests[0];
  const first = view?.permission;
  const [cursor, setCursor] = useState<{ key: string; index: number } | null>(null);
  // Keys read before the next render (a held arrow, Down then Enter typed fast) must see the moved
  // cursor, not the one of the last render: the handlers read and move it here.
  const latest = useRef(cursor);
  const once = useAnswerOnce();

  const options = first?.options ?? [];
  const inner = Math.max(10, width - 4);
  const keys = optionKeys(options);
  const waiting = requests.length - 1;
  const letters = keys
    .map((k) => k.letter)
    .filter(Boolean)
    .join("/");
  const hint = `${footer([["move-selection", "select"], "confirm-option", ["answer-permission", letters || "1-9"]])}${
    waiting > 0 ? ` · ${waiting} more waiting` : ""
  }`;
  // The border, the blank row above the options, the options and the hint are never cut.
  // Wrapped here, not by Ink: Ink keeps the space it broke at, which starts the next row when the
  // row before filled the width exactly.
  const names = options.map((o) => wrapRows(safeLine(o.name), inner - OPTION_GUTTER));
  const hintRows = wrapRows(hint, inner);
  const fixed = 3 + names.reduce((n, rows) => n + rows.length, 0) + hintRows.length;
  const room = (props.maxRows ?? Infinity) - fixed;
  // Drawn again only when what the request shows changed, not on every frame of a spinner.
  const request = useMemo(() => (view ? requestRows(view, inner, room) : []), [view, inner, room]);
  const index = first && cursor?.key === first.key ? cursor.index : defaultOption(options);

  useKeypress(
    (input, key, raw) => {
      if (!first || options.length === 0 || once.answered(first.key)) return false;
      const answer = (i: number) => {
        const option = options[i];
        if (option) once.answer(first.key, () => onAnswer(first.key, option.optionId));
      };
      const at = latest.current?.key === first.key ? latest.current.index : defaultOption(options);
      const move = (to: number) => {
        latest.current = { key: first.key, index: (to + options.length) % options.length };
        setCursor(latest.current);
      };
      const command = commandFor("permission", input, key, raw);
      if (command === "move-selection") move(key.upArrow ? at - 1 : at + 1);
      else if (command === "confirm-option") answer(at);
      else if (command === "answer-permission") answer(optionForKey(options, input));
      else return false;
      return true;
    },
    { isActive: isActive && first !== undefined },
  );

  if (!first) return null;
  const details = clipRequestRows(request, room);

  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={color("warning")} paddingX={1}>
      <Text>{details.join("\n")}</Text>
      <Box flexDirection="column" marginTop={1}>
        {options.map((option, i) => {
          const selected = i === index;
          const k = keys[i];
          const label = [k?.digit, k?.letter].filter(Boolean).join(" ");
          const role = option.kind.startsWith("allow") ? "success" : "error";
          return (
            <Box key={option.optionId} flexDirection="row">
              <Box width={2} flexShrink={0}>
                <Text color={color("accent")}>{selected ? "›" : " "}</Text>
              </Box>
              <Box width={5} flexShrink={0}>
                <Text dimColor={!selected}>{label}</Text>
              </Box>
              <Text bold={selected} color={selected ? color(role) : undefined}>
                {names[i].join("\n")}
              </Text>
            </Box>
          );
        })}
      </Box>
      <Text dimColor>{hintRows.join("\n")}</Text>
    </Box>
  );
}
