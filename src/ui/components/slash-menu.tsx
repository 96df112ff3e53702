import React from "react";
import { Box, Text } from "ink";
import type { SlashCommand } from "../commands/slash-commands.js";
import { footer } from "../shell/key-bindings.js";
import { color } from "../render/theme.js";
import { safeLine } from "../../text/terminal-safe.js";

/** One row of a completion menu. */
export interface MenuEntry {
  label: string;
  description?: string;
  /** A short tag on the right, e.g. "agent". */
  tag?: string;
}

/** Props of the completion menu. */
export interface CompletionMenuProps {
  entries: MenuEntry[];
  selected: number;
  width: number;
  /** Shown under the entries, e.g. "tab complete · enter run". */
  footer?: string;
  /** Rows of entries shown at most; the list scrolls with the selection. */
  maxShown?: number;
}

/** A completion list under the input: the selected entry marked, descriptions dim. */
export function CompletionMenu({ entries, selected, width, footer, maxShown = 8 }: CompletionMenuProps): React.ReactElement | null {
  if (entries.length === 0) return null;
  const max = Math.max(1, maxShown);
  const start = Math.max(0, Math.min(selected - max + 1, entries.length - max));
  const shown = entries.slice(start, start + max);
  const hidden = entries.length - shown.length;
  const labelWidth = Math.min(Math.max(...shown.map((e) => e.label.length)) + 2, Math.floor(width / 2));
  return (
    <Box flexDirection="column" width={width}>
      {shown.map((e, j) => {
        const i = start + j;
        const on = i === selected;
        return (
          <Box key={`${e.label}-${i}`} flexDirection="row" width={width}>
            <Box width={2} flexShrink={0}>
              <Text color={color("accent")}>{on ? "›" : " "}</Text>
            </Box>
            <Box width={labelWidth} flexShrink={0}>
              <Text bold={on} color={on ? color("accent") : undefined} wrap="truncate-end">
                {safeLine(e.label)}
              </Text>
            </Box>
            <Box flexGrow={1}>
              <Text dimColor wrap="truncate-end">
                {safeLine(e.description ?? "")}
                {e.tag ? ` (${e.tag})` : ""}
              </Text>
            </Box>
          </Box>
        );
      })}
      {footer || hidden ? (
        <Text dimColor wrap="truncate-end">
          {`  ${[hidden ? `${selected + 1}/${entries.length}` : "", footer ?? ""].filter(Boolean).join(" · ")}`}
        </Text>
      ) : null}
    </Box>
  );
}

/** Menu rows for slash commands: `/name hint`, the description, and which ones the agent provides. */
export function slashEntries(commands: SlashCommand[]): MenuEntry[] {
  return commands.map((c) => ({
    label: `/${c.name}${c.hint ? ` ${c.hint}` : ""}`,
    description: c.description,
    tag: c.source === "agent" ? "agent" : undefined,
  }));
}

/** Props of the slash menu. */
export interface SlashMenuProps {
  commands: SlashCommand[];
  selected: number;
  width: number;
  maxShown?: number;
}

/** The `/` menu: conch's commands and the agent's, filtered by what was typed. */
export function SlashMenu({ commands, selected, width, maxShown }: SlashMenuProps): React.ReactElement | null {
  return (
    <CompletionMenu
      entries={slashEntries(commands)}
      selected={selected}
      width={width}
      maxShown={maxShown}
      footer={footer(["move-selection", "menu-complete", "menu-enter", "menu-close"])}
    />
  );
}
