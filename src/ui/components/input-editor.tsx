import React, { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { Box, Text, type DOMElement, type Key } from "ink";
import { editorCommandFor, enterAction } from "../editor/editor-keys.js";
import type { EditorState } from "../editor/editor-state.js";
import { showLine as show, splitAtCursor, visibleLines } from "../editor/editor-view.js";
import { completeMention, mentionAt, type FileIndex } from "../compose/file-mentions.js";
import { completeSlash, slashQuery, slashSuggestions, type SlashCommand } from "../commands/slash-commands.js";
import { useKeypress } from "../hooks/use-keypress.js";
import type { EditorStore } from "../hooks/use-editor-store.js";
import { commandFor, footer } from "../shell/key-bindings.js";
import { CompletionMenu, SlashMenu } from "./slash-menu.js";
import { color } from "../render/theme.js";
import { drawAtOnce } from "../tty/draw-at-once.js";

/** Props of the prompt editor. */
export interface InputEditorProps {
  /** The buffer: the editor draws it as it changes, without a render of what is around it. */
  store: Pick<EditorStore, "read" | "dispatch" | "subscribe">;
  isActive: boolean;
  width: number;
  /** Lines of the buffer shown at most; a longer buffer scrolls with the cursor. */
  maxLines: number;
  /** Every slash command on offer (conch's and the agent's). */
  commands: SlashCommand[];
  /** `@` completion source; none means no file menu. */
  files?: FileIndex;
  /** The terminal was asked for bracketed paste (see editor-keys). */
  bracketedPaste: boolean;
  /** Shown before the text, e.g. "›" or "edit 2 ›". */
  prompt: string;
  placeholder?: string;
  onSubmit(text: string): void;
  /** Keys the editor has no use for (Esc, Shift+Tab, Ctrl-T, Ctrl-D, Up on an empty input…); true when handled. */
  onKey?(input: string, key: Key, raw: string): boolean;
  /** After each commit of the editor's: its height may have changed (the App measures what is under the live region). */
  onDrawn?(): void;
}

/** Entries a completion menu holds; it shows a scrolling window of them. */
const MENU_LIMIT = 50;

type Menu =
  { kind: "slash"; items: SlashCommand[] } | { kind: "file"; items: string[]; mention: NonNullable<ReturnType<typeof mentionAt>> } | null;

function useMenu(props: InputEditorProps, editor: EditorState, dismissed: string | null): Menu {
  const { commands, files } = props;
  const [, setTick] = useState(0);
  const query = slashQuery(editor.text, editor.cursor);
  const mention = query === null ? mentionAt(editor.text, editor.cursor) : null;
  const searching = mention !== null && files !== undefined;
  // The file walk is asynchronous: an open menu refreshes as results arrive.
  useEffect(() => {
    if (!searching) return;
    const refresh = () => setTick((t) => t + 1);
    const off = files.subscribe(refresh);
    // Results may have arrived between the render that started the walk and this subscription.
    refresh();
    return off;
  }, [searching, files]);
  if (dismissed === editor.text) return null;
  if (query !== null) {
    const items = slashSuggestions(query, commands, MENU_LIMIT);
    // A fully typed name followed by nothing else needs no menu to run.
    return items.length ? { kind: "slash", items } : null;
  }
  if (mention && files) {
    const items = files.search(mention.query, MENU_LIMIT);
    return items.length ? { kind: "file", items, mention } : null;
  }
  return null;
}

/**
 * The multi-line prompt editor: Enter sends, Shift/Alt+Enter, Ctrl-J or a trailing `\` break the
 * line, pasted text keeps its newlines. `/` opens the command menu and `@` the file menu.
 */
export function InputEditor(props: InputEditorProps): React.ReactElement {
  const { store, isActive, width, onDrawn } = props;
  const { dispatch } = store;
  const editor = useSyncExternalStore(store.subscribe, store.read);
  // After every commit on purpose: the App renders this with it, a key renders this alone.
  useLayoutEffect(() => onDrawn?.());
  const [dismissed, setDismissed] = useState<string | null>(null);
  const inPaste = useRef(false);
  const box = useRef<DOMElement | null>(null);
  const menu = useMenu(props, editor, dismissed);
  const menuKey = menu ? `${menu.kind}:${menu.items.join("|")}` : "";
  // The selection belongs to one list of items: a new list starts at its top, in the same render,
  // so an arrow key typed right after the list changed is never undone by a later reset.
  const [selection, setSelection] = useState({ menuKey: "", index: 0 });
  const selected = selection.menuKey === menuKey ? selection.index : 0;
  const setSelected = (i: number) => setSelection({ menuKey, index: i });
  const index = menu ? Math.min(selected, menu.items.length - 1) : 0;

  const completeSelected = (submit: boolean) => {
    if (!menu) return;
    const editor = store.read();
    if (menu.kind === "slash") {
      const command = menu.items[index];
      const done = completeSlash(editor.text, command);
      const runsBare = !command.hint && done.text.trim() === `/${command.name}`;
      if (submit && (runsBare || editor.text.trim() === `/${command.name}`)) {
        props.onSubmit(done.text.trim());
        return;
      }
      dispatch({ type: "set", text: done.text, cursor: done.cursor });
    } else {
      const done = completeMention(editor.text, menu.mention, menu.items[index]);
      dispatch({ type: "set", text: done.text, cursor: done.cursor });
    }
  };

  useKeypress(
    (input, key, raw) => {
      drawAtOnce(box.current);
      const command = editorCommandFor(input, key, raw, { inPaste: inPaste.current, bracketedPaste: props.bracketedPaste });
      if (command.kind === "paste-start") {
        inPaste.current = true;
        return;
      }
      if (command.kind === "paste-end") {
        inPaste.current = false;
        return;
      }
      if (menu && !inPaste.current) {
        const step = menu.items.length + (key.upArrow ? -1 : 1);
        switch (commandFor("menu", input, key, raw)) {
          case "move-selection":
            return setSelected((index + step) % menu.items.length);
          case "menu-complete":
            return completeSelected(false);
          case "menu-enter":
            return completeSelected(true);
          case "menu-close":
            return setDismissed(store.read().text);
        }
      }
      if (!inPaste.current && props.onKey?.(input, key, raw)) return;
      switch (command.kind) {
        case "edit":
          dispatch(command.action);
          return;
        case "enter": {
          const action = enterAction(store.read());
          if (action) dispatch(action);
          else props.onSubmit(store.read().text);
          return;
        }
        case "type-ahead":
          dispatch({ type: "insert", text: command.text });
          if (command.submit) props.onSubmit(store.read().text);
          return;
        default:
          return;
      }
    },
    { isActive },
  );

  const view = visibleLines(editor, props.maxLines);
  const promptWidth = props.prompt.length + 1;
  const textWidth = Math.max(4, width - promptWidth);
  const empty = editor.text === "";
  return (
    <Box ref={box} flexDirection="column" width={width}>
      {view.hiddenAbove > 0 ? (
        <Text dimColor>{`${" ".repeat(promptWidth)}… ${view.hiddenAbove} more line${view.hiddenAbove > 1 ? "s" : ""}`}</Text>
      ) : null}
      {view.lines.map((line, i) => {
        const row = view.start + i;
        const onCursor = isActive && row === view.cursorRow;
        return (
          <Box key={row} flexDirection="row" width={width}>
            <Box width={promptWidth} flexShrink={0}>
              <Text color={isActive ? color("accent") : undefined} dimColor={!isActive} bold>
                {row === 0 ? props.prompt : ""}
              </Text>
            </Box>
            <Box width={textWidth}>
              {empty && props.placeholder ? (
                <Text>
                  {isActive ? <Text inverse> </Text> : null}
                  <Text dimColor>{props.placeholder}</Text>
                </Text>
              ) : onCursor ? (
                <CursorLine {...splitAtCursor(line, view.column)} />
              ) : (
                <Text dimColor={!isActive}>{show(line) || " "}</Text>
              )}
            </Box>
          </Box>
        );
      })}
      {view.hiddenBelow > 0 ? (
        <Text dimColor>{`${" ".repeat(promptWidth)}… ${view.hiddenBelow} more line${view.hiddenBelow > 1 ? "s" : ""}`}</Text>
      ) : null}
      {isActive && menu?.kind === "slash" ? <SlashMenu commands={menu.items} selected={index} width={width} /> : null}
      {isActive && menu?.kind === "file" ? (
        <CompletionMenu
          entries={menu.items.map((p) => ({ label: `@${p}` }))}
          selected={index}
          width={width}
          footer={footer(["move-selection", "menu-complete", ["menu-enter", "complete"], "menu-close"])}
        />
      ) : null}
    </Box>
  );
}

/** The cursor's line: the character under the cursor in reverse video (a space at the end). */
function CursorLine({ before, at, after }: { before: string; at: string; after: string }): React.ReactElement {
  return (
    <Text>
      {show(before)}
      <Text inverse>{at ? show(at) : " "}</Text>
      {show(after)}
    </Text>
  );
}
