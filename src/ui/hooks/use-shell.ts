import type { Key } from "ink";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import type { CreateElicitationResponse } from "@agentclientprotocol/sdk";
import type { QueuedMessage, SessionState } from "../../session/state.js";
import { conchCommandOf } from "../commands/conch-commands.js";
import { detachWithQueued } from "../commands/detach.js";
import { editorReducer, initialEditorState, type EditorAction, type EditorState } from "../input/editor-state.js";
import { readClipboardImage, type ClipboardRead } from "../input/clipboard-image.js";
import { editExternally, type TerminalHandoff } from "../input/external-editor.js";
import { buildPrompt } from "../input/prompt-blocks.js";
import { ptyBytesFor } from "../input/pty-keys.js";
import type { Launch } from "../launch.js";
import type { TerminalAccess } from "../../terminals/terminal-access.js";
import type { SessionPort } from "../session-port.js";
import { shellCommandFor, type Focus, type KeyCommand } from "../shell/key-bindings.js";
import { focusOf, INITIAL_SHELL, shellReducer, type Panel, type ShellState } from "../shell/shell-state.js";
import { isBusy } from "../status/status-text.js";
import { findHits, hitKey, type SearchHit } from "../search/transcript-search.js";
import { useKeypress } from "./use-keypress.js";

export type { Focus } from "../shell/key-bindings.js";
export type { Panel } from "../shell/shell-state.js";

/** How long a first Ctrl-C waits for the second. */
export const CTRL_C_WINDOW_MS = 2000;

/** What the shell needs from the app around it. */
export interface ShellOptions {
  port: SessionPort;
  state: SessionState;
  cwd: string;
  launch?: Launch;
  launchFailed: boolean;
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
}

/** The queue view's callbacks. */
export interface QueueHandlers {
  onSelect(i: number): void;
  onEdit(m: QueuedMessage): void;
  onRemove(m: QueuedMessage): void;
  onLeave(): void;
}

/** What the app draws and wires from the shell. */
export interface Shell extends ShellState {
  focus: Focus;
  editor: EditorState;
  readEditor(): EditorState;
  dispatchEditor(action: EditorAction): void;
  submit(text: string): void;
  /** Keys the editor does not use itself; true when the shell handled it. */
  onEditorKey(input: string, key: Key): boolean;
  queue: QueueHandlers;
  /** Position of the queued message being edited, or -1. */
  editingIndex: number;
  runningTerminals: string[];
  expanded: boolean;
  answerPermission(key: string, optionId: string | null): void;
  answerQuestion(key: string, response: CreateElicitationResponse): void;
  authenticate(methodId: string): void;
  /** The undo prompt's answer: true puts the files back. */
  answerUndo(apply: boolean): void;
  /** Where the search query occurs, oldest first, while the search view is open. */
  searchHits: SearchHit[];
  /** The hit the search view shows, or -1 when there is none. */
  searchIndex: number;
}

/** An editor whose latest state is readable at once, before React renders it. */
function useEditorStore(): { editor: EditorState; read: () => EditorState; dispatch: (a: EditorAction) => void } {
  const ref = useRef<EditorState>(initialEditorState());
  const [, force] = useState(0);
  const dispatch = useCallback((action: EditorAction) => {
    const next = editorReducer(ref.current, action);
    if (next === ref.current) return;
    ref.current = next;
    force((n) => n + 1);
  }, []);
  const read = useCallback(() => ref.current, []);
  return { editor: ref.current, read, dispatch };
}

function runningClientTerminals(state: SessionState, access: TerminalAccess | undefined): string[] {
  if (!access) return [];
  return Object.values(state.terminals)
    .filter((t) => t.source === "client" && !t.exited && access.get(t.terminalId))
    .map((t) => t.terminalId);
}

const PASTE_MARKERS = new Set(["\x1b[200~", "\x1b[201~"]);

/**
 * The interactive shell's view state and key handling. The view state is one reducer
 * (shell/shell-state.ts); who has the keys is `focusOf` it; the shell's keys are the key-binding
 * table (shell/key-bindings.ts), dispatched in one place. Keys become the session's intents; the
 * session decides everything else.
 */
export function useShell(opts: ShellOptions): Shell {
  const { port, state, terminals } = opts;
  const store = useEditorStore();
  const [shell, dispatch] = useReducer(shellReducer, INITIAL_SHELL);
  const { expanded, setExpanded } = opts;
  const ctrlCTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** Images pasted into the message being written, for their labels. */
  const pasted = useRef(0);
  useEffect(() => () => clearTimeout(ctrlCTimer.current), []);

  const running = runningClientTerminals(state, terminals);
  const focus = focusOf(shell, state, running);
  const search = shell.search;
  const query = search?.query;
  const searchHits = useMemo(() => (query === undefined ? [] : findHits(state, query)), [state, query]);
  const selectedHit = search?.selected ? searchHits.findIndex((h) => hitKey(h) === search.selected) : -1;
  // A hit that was not chosen, or is gone, leaves the newest one shown.
  const searchIndex = selectedHit >= 0 ? selectedHit : searchHits.length - 1;
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
    if (opts.launch) void opts.launch.run(() => port.restart());
    else void port.restart().catch((err: Error) => show(`restart failed: ${err.message}`, "error"));
  };

  const submit = (raw: string) => {
    const text = raw.replace(/\s+$/, "");
    if (!text.trim()) return;
    dispatch({ type: "messages-cleared" });
    if (editingQueuedId) {
      if (state.queue.some((m) => m.id === editingQueuedId)) port.editQueued(editingQueuedId, text);
      else port.send(text);
      dispatch({ type: "queue-edit-ended" });
      store.dispatch({ type: "submitted" });
      return;
    }
    const conch = conchCommandOf(text);
    if (conch) {
      store.dispatch({ type: "submitted" });
      conch.command.run(conch.args, {
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
        launchFailed: opts.launchFailed,
        quit: opts.quit,
        listSessions: opts.listSessions,
        askUndo: (plan) => dispatch({ type: "undo-asked", plan }),
        openSearch: (query) => dispatch({ type: "search-opened", query }),
        pasteImage,
      });
      return;
    }
    deliver(text, "send");
  };

  /** Sends a message the editor holds as a prompt (queued while busy), or steers it into the running turn. */
  const deliver = (text: string, how: "send" | "steer", notes: string[] = []) => {
    const images = state.info?.agentCapabilities?.promptCapabilities?.image === true;
    const built = buildPrompt(text, { cwd: state.info?.cwd ?? opts.cwd, images, pasted: shell.images });
    port[how](text, built.blocks ?? undefined);
    dispatch({ type: "notes-set", notes: [...notes, ...built.notes] });
    dispatch({ type: "images-cleared" });
    pasted.current = 0;
    store.dispatch({ type: "submitted" });
  };

  /**
   * Ctrl-S: the message goes into the running turn where the agent takes steering. Otherwise it
   * is what Enter does, and while a turn runs the note under the input says why it was queued.
   */
  const steer = () => {
    const text = store.read().text.replace(/\s+$/, "");
    if (!text.trim()) return;
    if (!isBusy(state) || conchCommandOf(text)) return submit(text);
    dispatch({ type: "messages-cleared" });
    if (editingQueuedId) {
      // The queued message being edited goes into the turn instead of waiting for its end.
      if (state.queue.some((m) => m.id === editingQueuedId)) port.removeQueued(editingQueuedId);
      dispatch({ type: "queue-edit-ended" });
    }
    if (state.phase === "cancelling" || state.phase === "replaying")
      return deliver(text, "send", ["the turn is ending: queued, sent when it is over"]);
    if (!state.agent?.steering) {
      return deliver(text, "send", [
        `${state.info?.agentName ?? "the agent"} does not take steered messages (no _session/steering): queued, sent when the turn ends`,
      ]);
    }
    deliver(text, "steer");
  };

  /** Ctrl-G: the message goes to the person's editor and comes back into the input. */
  const editInEditor = () => {
    if (!opts.handoff) return show("the external editor needs conch's own terminal", "error");
    const result = editExternally(store.read().text, { env: process.env, handoff: opts.handoff });
    if (!result.ok) return show(result.message, "error");
    store.dispatch({ type: "set", text: result.text });
  };

  /** Alt-V or /paste-image: the clipboard's image goes with the message, its label in the text. */
  const pasteImage = () => {
    if (!state.info) return show("the agent has not said yet whether it takes images: paste again once the session is open", "error");
    if (state.info.agentCapabilities?.promptCapabilities?.image !== true) {
      return show(
        `${state.info.agentName} does not take images (no promptCapabilities.image): send the file as a link with @path`,
        "error",
      );
    }
    void (opts.readClipboard ?? readClipboardImage)().then((read) => {
      if (!read.ok) return show(read.message, "error");
      const label = `[image ${++pasted.current}]`;
      dispatch({ type: "image-pasted", image: { label, mimeType: read.image.mimeType, data: read.image.data.toString("base64") } });
      store.dispatch({ type: "insert", text: label });
      show(
        `${label}: ${Math.max(1, Math.round(read.image.data.length / 1024))} KB ${read.image.mimeType} from the clipboard (${read.image.tool}), sent with the message`,
      );
    });
  };

  const cycleMode = () => {
    const modes = state.modes?.availableModes ?? [];
    if (modes.length < 2) return;
    const i = modes.findIndex((m) => m.id === state.modes?.currentModeId);
    void port.setMode(modes[(i + 1) % modes.length].id);
  };

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
        steer();
        return true;
      case "cycle-mode":
        cycleMode();
        return true;
      case "skip-permission":
        if (firstPermission === undefined) return false;
        dispatch(focus === "permission" ? { type: "permission-skipped", key: firstPermission } : { type: "permission-returned" });
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
        editInEditor();
        return true;
      case "paste-image":
        pasteImage();
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
      case "clear-input":
        dispatch({ type: "undo-closed" });
        dispatch({ type: "search-closed" });
        if (shell.ctrlCArmed) {
          opts.quit();
          return true;
        }
        dispatch({ type: "ctrl-c-armed" });
        clearTimeout(ctrlCTimer.current);
        ctrlCTimer.current = setTimeout(() => dispatch({ type: "ctrl-c-disarmed" }), CTRL_C_WINDOW_MS);
        if (store.read().text !== "") {
          dispatch({ type: "queue-edit-ended" });
          dispatch({ type: "images-cleared" });
          pasted.current = 0;
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
  // go to its program): the shell's commands for whoever has the keys. Ctrl-C in all of them.
  useKeypress(
    (input, key, raw) => {
      const command = shellCommandFor(focus, input, key, raw);
      if (!command || (focus === "input" && command !== "clear-input")) return;
      run(command);
    },
    { isActive: focus !== "terminal" },
  );

  // A focused terminal pane takes every key but Esc (leave), Ctrl-T (next/leave) and PageUp/PageDown (scroll).
  useKeypress(
    (input, key, raw) => {
      if (!terminalFocus) return;
      if (key.escape && (raw === "\x1b" || raw === "")) return dispatch({ type: "terminal-left" });
      if (key.ctrl && input === "t") {
        const next = nextTerminal();
        return dispatch(next ? { type: "terminal-focused", id: next } : { type: "terminal-left" });
      }
      const step = Math.max(1, Math.floor(opts.paneRows / 2));
      if (key.pageUp) return dispatch({ type: "terminal-scrolled", by: step });
      if (key.pageDown) return dispatch({ type: "terminal-scrolled", by: -step });
      if (PASTE_MARKERS.has(raw)) return;
      terminals?.write(terminalFocus.id, ptyBytesFor(input, key, raw));
      if (terminalFocus.scroll) dispatch({ type: "terminal-scrolled", by: -terminalFocus.scroll });
    },
    { isActive: focus === "terminal" },
  );

  const answerUndo = (apply: boolean) => {
    const plan = shell.undo;
    dispatch({ type: "undo-closed" });
    if (!plan || !apply) return;
    // What was done is a notice in the transcript; only a refusal is shown here.
    void port.applyUndo(plan).then(
      (outcome) => typeof outcome === "string" && show(outcome, "error"),
      (err: Error) => show(`undo failed: ${err.message}`, "error"),
    );
  };

  // The search view's own keys: what is searched for is typed here; PageUp/PageDown scroll the item shown.
  useKeypress(
    (input, key, raw) => {
      if (!search || shellCommandFor("search", input, key, raw)) return;
      const step = Math.max(1, Math.floor(opts.paneRows / 2));
      if (key.pageUp) return dispatch({ type: "search-scrolled", by: -step });
      if (key.pageDown) return dispatch({ type: "search-scrolled", by: step });
      // Relative to the query as it is when the key is handled: keys can come faster than renders.
      if (key.backspace || key.delete) return dispatch({ type: "search-typed", keys: "\x7f" });
      if (key.ctrl && input === "u") return dispatch({ type: "search-edited", query: "" });
      if (PASTE_MARKERS.has(raw) || key.ctrl || key.meta || key.tab || !input) return;
      dispatch({ type: "search-typed", keys: input });
    },
    { isActive: focus === "search" },
  );

  const queue: QueueHandlers = {
    onSelect: (i: number) => dispatch({ type: "queue-selected", index: i }),
    onEdit: (m: QueuedMessage) => {
      dispatch({ type: "queue-edit-started", id: m.id });
      store.dispatch({ type: "set", text: m.text });
    },
    onRemove: (m: QueuedMessage) => {
      port.removeQueued(m.id);
      if (editingQueuedId === m.id) dispatch({ type: "queue-edit-ended" });
      const left = state.queue.length - 1;
      dispatch({ type: "queue-selected", index: left > 0 ? Math.min(queueSelected ?? 0, left - 1) : null });
    },
    onLeave: () => dispatch({ type: "queue-selected", index: null }),
  };

  return {
    ...shell,
    terminalFocus: focusedTerminalAlive ? terminalFocus : null,
    focus,
    editor: store.editor,
    readEditor: store.read,
    dispatchEditor: store.dispatch,
    submit,
    onEditorKey,
    queue,
    editingIndex: editingQueuedId ? state.queue.findIndex((m) => m.id === editingQueuedId) : -1,
    runningTerminals: running,
    expanded,
    answerPermission: (key: string, optionId: string | null) => port.answerPermission(key, optionId),
    answerQuestion: port.answerQuestion.bind(port),
    authenticate: (methodId: string) => void port.authenticate(methodId),
    answerUndo,
    searchHits,
    searchIndex,
  };
}
