import type { Key } from "ink";
import { useCallback, useEffect, useReducer, useRef } from "react";
import type { CreateElicitationResponse } from "@agentclientprotocol/sdk";
import type { SessionState } from "../../session/state.js";
import type { TerminalAccess } from "../../terminals/terminal-access.js";
import type { CommandContext } from "../commands/command-context.js";
import { detachWithQueued } from "../commands/detach.js";
import { applyConfirmedUndo } from "../commands/apply-undo.js";
import type { EditorState } from "../editor/editor-state.js";
import type { ClipboardRead } from "../compose/clipboard-image.js";
import type { TerminalHandoff } from "../compose/external-editor.js";
import type { SessionPort } from "../session-port.js";
import { shellCommandFor, type Focus, type KeyCommand } from "../shell/key-bindings.js";
import { queueHandlers, type QueueHandlers } from "./queue-handlers.js";
import { pickerHandlers, type PickerHandlers } from "./picker-handlers.js";
import { focusOf, INITIAL_SHELL, shellReducer, type Panel, type ShellState } from "../shell/shell-state.js";
import { isBusy } from "../status/status-text.js";
import { hitKey, type SearchHit } from "../search/transcript-search.js";
import { useComposer } from "./use-composer.js";
import { useEditorStore, type EditorStore } from "./use-editor-store.js";
import { useSearchHits, useSearchKeys } from "./use-search-view.js";
import { useTasksView } from "./use-tasks-view.js";
import { runningClientTerminals, useTerminalPaneKeys } from "./use-terminal-panes.js";
import { KeyPriority, useKeypress } from "./use-keypress.js";
import { nextCycleMode } from "../../session/session-modes.js";

/** How long a first Ctrl-C waits for the second. */
const CTRL_C_WINDOW_MS = 2000;

/** What the shell needs from the app around it. */
export interface ShellOptions {
  port: SessionPort;
  state: SessionState;
  cwd: string;
  terminals?: TerminalAccess;
  /** Rows a focused terminal pane (or the search view) shows, for PageUp/PageDown steps. */
  paneRows: number;
  quit(): void;
  clearScreen(): void;
  reprint(): void;
  /** Tool output and thoughts shown in full (/expand). */
  expanded: boolean;
  setExpanded(expanded: boolean): void;
  listSessions?: () => Promise<string>;
  /** Lends conch's terminal to the external editor (Ctrl-G); without it there is no editor to run. */
  handoff?: TerminalHandoff;
  /** Reads an image from the clipboard (Alt-V); tests pass their own. */
  readClipboard?: () => Promise<ClipboardRead>;
  /** The editor as the instant prompt left it. */
  editorAtStart?: EditorState;
}

/** What the app draws and wires from the shell. */
export interface Shell extends ShellState {
  focus: Focus;
  /** The input's buffer: the editor draws it as keys change it, without a render of the App. */
  editor: EditorStore;
  submit(text: string): void;
  /** Keys the editor does not use itself; true when the shell handled it. */
  onEditorKey(input: string, key: Key): boolean;
  queue: QueueHandlers;
  pickerKeys: PickerHandlers;
  /** Position of the queued message being edited, or -1. */
  editingIndex: number;
  runningTerminals: string[];
  expanded: boolean;
  answerPermission(key: string, optionId: string | null): void;
  answerQuestion(key: string, response: CreateElicitationResponse): void;
  /** Starts a login; settles when it succeeded or failed. */
  authenticate(methodId: string): Promise<void>;
  /** The undo prompt's answer: true puts the files back. */
  answerUndo(apply: boolean): void;
  /** Where the search query occurs, oldest first, while the search view is open. */
  searchHits: SearchHit[];
  /** The hit the search view shows, or -1 when there is none. */
  searchIndex: number;
  taskList: ReturnType<typeof useTasksView>;
}

/**
 * The interactive shell's view state and key handling. The view state is one reducer
 * (shell/shell-state.ts); who has the keys is `focusOf` it; the shell's keys are the key-binding
 * table (shell/key-bindings.ts), dispatched in one place. Keys become the session's intents; the
 * session decides everything else.
 */
export function useShell(opts: ShellOptions): Shell {
  const { port, state, terminals, expanded, setExpanded } = opts;
  const store = useEditorStore(opts.editorAtStart);
  const [shell, dispatch] = useReducer(shellReducer, INITIAL_SHELL);
  const ctrlCTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(ctrlCTimer.current), []);

  const running = runningClientTerminals(state, terminals);
  const focus = focusOf(shell, state, running);
  const search = shell.search;
  const { hits: searchHits, index: searchIndex } = useSearchHits(state, search);
  const firstPermission = state.permissions[0]?.key;
  const { terminalFocus, queueSelected, editingQueuedId } = shell;

  // Leave a terminal pane when its command ends; leave the queue when it empties.
  const focusedTerminalAlive = terminalFocus !== null && running.includes(terminalFocus.id);
  useEffect(() => {
    if (terminalFocus && !focusedTerminalAlive) dispatch({ type: "terminal-left" });
  }, [terminalFocus, focusedTerminalAlive]);
  useEffect(() => {
    if (queueSelected !== null && queueSelected >= state.queue.length)
      dispatch({ type: "queue-selected", index: state.queue.length ? state.queue.length - 1 : null });
  }, [queueSelected, state.queue.length]);

  const show = useCallback((lines: string | string[], tone: Panel["tone"] = "info") => {
    dispatch({ type: "panel-shown", panel: { lines: Array.isArray(lines) ? lines : [lines], tone } });
  }, []);

  const restart = () => {
    dispatch({ type: "messages-cleared" });
    // A restart that fails is a `failed` event: the status line shows it.
    void port.restart().catch(() => undefined);
  };

  const commands: Omit<CommandContext, "pasteImage"> = {
    port,
    state,
    show,
    clearScreen: opts.clearScreen,
    toggleExpanded: () => {
      const next = !expanded;
      setExpanded(next);
      // Printed items were drawn with the old setting; print them again with the new one.
      opts.reprint();
      return next;
    },
    restart,
    quit: opts.quit,
    listSessions: opts.listSessions,
    askUndo: (plan) => dispatch({ type: "undo-asked", plan }),
    openSearch: (query) => dispatch({ type: "search-opened", query }),
    openTasks: () => dispatch({ type: "tasks-opened" }),
    openPicker: (picker) => dispatch({ type: "picker-opened", picker }),
  };
  const composer = useComposer({
    shell,
    dispatch,
    store,
    commands,
    cwd: opts.cwd,
    handoff: opts.handoff,
    readClipboard: opts.readClipboard,
  });

  const nextTerminal = (): string | undefined => {
    const current = terminalFocus ? running.indexOf(terminalFocus.id) : -1;
    return running[current + 1];
  };

  /** The shell's own commands, by name (the key-binding table says which key is which). */
  const run = (command: KeyCommand): boolean => {
    switch (command) {
      case "cancel":
        if (focus !== "input") {
          port.cancel();
          return true;
        }
        if (isBusy(state) && state.phase !== "replaying") port.cancel();
        else if (editingQueuedId) {
          dispatch({ type: "queue-edit-ended" });
          store.dispatch({ type: "clear" });
        } else dispatch({ type: "messages-cleared" });
        return true;
      case "steer":
        composer.steer();
        return true;
      case "cycle-mode": {
        // Modes that drop approvals or the sandbox are never one key press away (the profile says which).
        const next = nextCycleMode(state);
        if (next) void port.setMode(next);
        return true;
      }
      case "skip-permission":
        if (firstPermission === undefined) return false;
        dispatch({ type: "permission-skipped", key: firstPermission });
        return true;
      case "return-to-permission":
        if (firstPermission === undefined) return false;
        dispatch({ type: "permission-returned" });
        return true;
      case "focus-terminal": {
        const next = running.length ? (nextTerminal() ?? running[0]) : undefined;
        if (next) dispatch({ type: "terminal-focused", id: next });
        return true;
      }
      case "detach":
        if (store.read().text === "") detachWithQueued(port);
        else store.dispatch({ type: "delete" });
        return true;
      case "select-queued":
        if (store.read().text !== "" || state.queue.length === 0) return false;
        dispatch({ type: "queue-selected", index: state.queue.length - 1 });
        return true;
      case "external-editor":
        composer.editInEditor();
        return true;
      case "paste-image":
        composer.pasteImage();
        return true;
      case "search":
        dispatch({ type: "messages-cleared" });
        dispatch({ type: "search-opened", query: "" });
        return true;
      case "search-older":
      case "search-newer": {
        const next = searchIndex + (command === "search-older" ? -1 : 1);
        if (next >= 0 && next < searchHits.length) dispatch({ type: "search-selected", key: hitKey(searchHits[next]) });
        return true;
      }
      case "leave-search":
        dispatch({ type: "search-closed" });
        return true;
      case "tasks":
        dispatch({ type: "tasks-opened" });
        return true;
      case "clear-input":
        dispatch({ type: "views-closed" });
        if (shell.ctrlCArmed) {
          opts.quit();
          return true;
        }
        dispatch({ type: "ctrl-c-armed" });
        clearTimeout(ctrlCTimer.current);
        ctrlCTimer.current = setTimeout(() => dispatch({ type: "ctrl-c-disarmed" }), CTRL_C_WINDOW_MS);
        if (store.read().text !== "") {
          dispatch({ type: "queue-edit-ended" });
          composer.forgetImages();
          store.dispatch({ type: "clear" });
        }
        return true;
      default:
        return false;
    }
  };

  /** Keys the editor does not use, while the input has the keys. */
  const onEditorKey = (input: string, key: Key, raw = ""): boolean => {
    const command = shellCommandFor("input", input, key, raw);
    // Ctrl-C is handled once, by the shell's own handler below, wherever the keys are.
    return command !== undefined && command !== "clear-input" && run(command);
  };

  // Everywhere but the input (which asks through onEditorKey) and a focused terminal (whose keys
  // go to its program): the shell's commands for whoever has the keys, before the view that has
  // them. Ctrl-C in all of them.
  useKeypress(
    (input, key, raw) => {
      const command = shellCommandFor(focus, input, key, raw);
      if (!command || (focus === "input" && command !== "clear-input")) return false;
      return run(command);
    },
    { isActive: focus !== "terminal", priority: KeyPriority.shell },
  );

  useTerminalPaneKeys({
    active: focus === "terminal",
    focus: terminalFocus,
    next: nextTerminal,
    terminals,
    paneRows: opts.paneRows,
    dispatch,
  });
  useSearchKeys({ active: focus === "search", open: search !== null, paneRows: opts.paneRows, dispatch });
  const taskList = useTasksView({ port, state, view: shell.tasks, active: focus === "tasks", running, dispatch, show, composer });

  return {
    ...shell,
    terminalFocus: focusedTerminalAlive ? terminalFocus : null,
    focus,
    editor: store,
    submit: composer.submit,
    onEditorKey,
    queue: queueHandlers({ port, state, shell, dispatch, store }),
    pickerKeys: pickerHandlers({ port, state, dispatch }),
    editingIndex: editingQueuedId ? state.queue.findIndex((m) => m.id === editingQueuedId) : -1,
    runningTerminals: running,
    expanded,
    answerPermission: (key: string, optionId: string | null) => port.answerPermission(key, optionId),
    answerQuestion: port.answerQuestion.bind(port),
    // A failed login is a notice in the transcript.
    authenticate: (methodId: string) => port.authenticate(methodId).catch(() => undefined),
    answerUndo: (apply: boolean) => {
      dispatch({ type: "undo-closed" });
      applyConfirmedUndo(port, shell.undo, apply, show);
    },
    searchHits,
    searchIndex,
    taskList,
  };
}
