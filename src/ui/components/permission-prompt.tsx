import React, { useRef, useState } from "react";
import { Box, Text, useInput } from "ink";
import type { ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import type { PendingPermission, SessionState } from "../../session/state.js";
import { DiffView } from "./diff-view.js";
import { defaultOption, optionForKey, optionKeys } from "./permission-options.js";
import { KIND_ICONS, color } from "./theme.js";
import { ClippedMarkdown, ClippedOutput } from "./tool-call-content.js";
import { relativePath } from "./tool-call-fields.js";
import { requestDisplayOf } from "../../session/profiles/display-of.js";

/** Props of the permission prompt. */
export interface PermissionPromptProps {
  /** Pending requests, oldest first; the first is asked, the rest wait. */
  permissions: PendingPermission[];
  state: SessionState;
  width: number;
  /** Listens to keys only while active, so the input editor keeps them otherwise. */
  isActive: boolean;
  /** The user's choice for request `key`; null is never sent by keys (Esc belongs to the shell). */
  onAnswer(key: string, optionId: string | null): void;
}

/** Lines of a diff shown in the prompt: enough to judge an edit, bounded so the prompt fits. */
const PROMPT_DIFF_LINES = 40;
const PROMPT_TEXT_LINES = 6;

/** Shows the first pending permission request in full and answers it with a key or ↑/↓ + Enter. */
export function PermissionPrompt(props: PermissionPromptProps): React.ReactElement | null {
  const { permissions, state, width, isActive, onAnswer } = props;
  const first = permissions[0];
  const [cursor, setCursor] = useState<{ key: string; index: number } | null>(null);
  // A held or pasted key can arrive twice before the answered request leaves the props.
  const answered = useRef(new Set<string>());

  const options = first?.options ?? [];
  const index = first && cursor?.key === first.key ? cursor.index : defaultOption(options);

  useInput(
    (input, key) => {
      if (!first || options.length === 0 || answered.current.has(first.key)) return;
      const answer = (i: number) => {
        const option = options[i];
        if (!option) return;
        answered.current.add(first.key);
        onAnswer(first.key, option.optionId);
      };
      if (key.upArrow) setCursor({ key: first.key, index: (index - 1 + options.length) % options.length });
      else if (key.downArrow) setCursor({ key: first.key, index: (index + 1) % options.length });
      else if (key.return) answer(index);
      else if (!key.ctrl && !key.meta && input) {
        const i = optionForKey(options, input);
        if (i >= 0) answer(i);
      }
    },
    { isActive: isActive && first !== undefined },
  );

  if (!first) return null;
  const keys = optionKeys(options);
  const waiting = permissions.length - 1;
  const inner = Math.max(10, width - 4);

  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={color("warning")} paddingX={1}>
      <RequestDetails permission={first} state={state} width={inner} />
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
                {option.name}
              </Text>
            </Box>
          );
        })}
      </Box>
      <Text dimColor>
        {`↑↓ select · enter confirm · keys ${keys.map((k) => k.letter).filter(Boolean).join("/") || "1-9"}`}
        {waiting > 0 ? ` · ${waiting} more waiting` : ""}
      </Text>
    </Box>
  );
}

/** What the request would do: the tool, its command and cwd, its diffs, its paths, the agent's reason. */
function RequestDetails({ permission, state, width }: { permission: PendingPermission; state: SessionState; width: number }) {
  const display = requestDisplayOf(state, permission);
  const kind: ToolKind = display.kind ?? "other";
  const known = state.toolCalls[permission.toolCallId];
  const locations: ToolCallLocation[] = permission.request.toolCall.locations ?? known?.locations ?? [];
  const cwd = state.info?.cwd;

  const command = kind === "execute" ? (display.command ?? display.title) : undefined;
  const commandCwd = kind === "execute" ? (display.cwd ?? cwd) : undefined;
  const diffs = display.blocks.flatMap((b) => (b.type === "diff" ? [b] : []));
  const texts = display.blocks.flatMap((b) => ((b.type === "prose" || b.type === "output") && b.text.trim() !== command?.trim() ? [b] : []));
  const diffPaths = new Set(diffs.map((d) => d.path));
  const paths = locations.filter((l) => !diffPaths.has(l.path));
  const rawInput = permission.request.toolCall.rawInput ?? known?.rawInput;

  return (
    <Box flexDirection="column" width={width}>
      <Text>
        <Text color={color("warning")} bold>
          {"Permission "}
        </Text>
        <Text dimColor>{`${KIND_ICONS[kind] ?? KIND_ICONS.other} ${kind} `}</Text>
        <Text bold>{display.title}</Text>
      </Text>
      {command !== undefined ? (
        <Box flexDirection="column" marginTop={1}>
          <Text>
            <Text color={color("accent")}>$ </Text>
            <Text bold>{command}</Text>
          </Text>
          {commandCwd ? <Text dimColor>{`in ${commandCwd}`}</Text> : null}
        </Box>
      ) : null}
      {diffs.map((d, i) => (
        <Box key={i} marginTop={1}>
          <DiffView
            path={relativePath(d.path, cwd)}
            oldText={d.oldText}
            newText={d.newText}
            width={width}
            maxLines={PROMPT_DIFF_LINES}
          />
        </Box>
      ))}
      {paths.length > 0 ? (
        <Text dimColor>
          {paths.map((l) => `${relativePath(l.path, cwd)}${typeof l.line === "number" ? `:${l.line}` : ""}`).join("  ")}
        </Text>
      ) : null}
      {texts.map((t, i) => (
        <Box key={i} marginTop={1}>
          {t.type === "prose" ? (
            <ClippedMarkdown text={t.text} width={width} expanded={false} maxLines={PROMPT_TEXT_LINES} />
          ) : (
            <ClippedOutput text={t.text} expanded={false} maxLines={PROMPT_TEXT_LINES} />
          )}
        </Box>
      ))}
      {command === undefined && diffs.length === 0 && texts.length === 0 && rawInput !== undefined ? (
        <Text dimColor wrap="truncate-end">
          {safeJson(rawInput)}
        </Text>
      ) : null}
    </Box>
  );
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}
