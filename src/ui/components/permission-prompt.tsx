import type { PermissionOption } from "@agentclientprotocol/sdk";
import React, { useMemo, useRef, useState } from "react";
import { Box, Text } from "ink";
import { useAnswerOnce } from "../hooks/use-answer-once.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { commandFor, footer } from "../shell/key-bindings.js";
import type { RequestView } from "../render/request-view.js";
import { inlineOptionRows, optionNameRows, permissionLayout } from "../render/permission-layout.js";
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
  /**
   * Rows the whole prompt (and `below`) may take: the request is cut, then the border and hints
   * left out, so the question, the command and the options stay on screen. Within `preferRows`
   * when the prompt fits there with its request cut, so the screen keeps some room above it.
   */
  maxRows?: number;
  preferRows?: number;
  /** Dim text under the prompt (the shell's keys): left out first on a small screen, unless `keepBelow`. */
  below?: string;
  keepBelow?: boolean;
}

const NO_OPTIONS: PermissionOption[] = [];

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

  const options = first?.options ?? NO_OPTIONS;
  const keys = useMemo(() => optionKeys(options), [options]);
  const labels = useMemo(() => keys.map((k) => [k.digit, k.letter].filter(Boolean).join(" ")), [keys]);
  const waiting = requests.length - 1;
  const letters = keys
    .map((k) => k.letter)
    .filter(Boolean)
    .join("/");
  const hint = `${footer([["move-selection", "select"], "confirm-option", ["answer-permission", letters || "1-9"]])}${
    waiting > 0 ? ` · ${waiting} more waiting` : ""
  }`;
  const { maxRows, preferRows, below, keepBelow = false } = props;
  const belowRows = below === undefined ? [] : wrapRows(below, width);
  // Drawn again only when what the request shows or the room changed, not on every frame of a spinner.
  const layout = useMemo(
    () =>
      view && permissionLayout({ view, options, labels, width, hint, waiting, below: belowRows.length, keepBelow, maxRows, preferRows }),
    [view, options, labels, width, hint, waiting, belowRows.length, keepBelow, maxRows, preferRows],
  );
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

  if (!first || !layout) return null;
  const { inner } = layout;
  // Wrapped here, not by Ink: Ink keeps the space it broke at, which starts the next row when the
  // row before filled the width exactly.
  const choices = layout.inline ? (
    <Text>{inlineOptionRows(options, labels, index, inner).slice(0, layout.optionRows).join("\n")}</Text>
  ) : (
    options.map((option, i) => {
      const selected = i === index;
      const label = labels[i];
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
            {optionNameRows(option, inner).join("\n")}
          </Text>
        </Box>
      );
    })
  );
  const prompt = (
    <Box
      flexDirection="column"
      width={width}
      paddingX={1}
      {...(layout.framed ? { borderStyle: "round" as const, borderColor: color("warning") } : {})}
    >
      <Text>{layout.details.join("\n")}</Text>
      <Box flexDirection="column" marginTop={layout.framed ? 1 : 0}>
        {choices}
      </Box>
      {layout.hint.length > 0 ? <Text dimColor>{layout.hint.join("\n")}</Text> : null}
    </Box>
  );
  if (!layout.below || belowRows.length === 0) return prompt;
  return (
    <Box flexDirection="column">
      {prompt}
      <Text dimColor>{belowRows.join("\n")}</Text>
    </Box>
  );
}
