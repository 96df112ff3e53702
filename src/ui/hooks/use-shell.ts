import type { Key } from "ink";
import { useCallback, useEffect, useRef, useState } from "react";
import type { QueuedMessage, SessionState } from "../../session/state.js";
import { runConchCommand } from "../commands/conch-commands.js";
import { detachWithQueued } from "../commands/detach.js";
import { editorReducer, initialEditorState, type EditorAction, type EditorState } from "../input/editor-state.js";
import { buildPrompt } from "../input/prompt-blocks.js";
import { ptyBytesFor } from "../input/pty-keys.js";
import { isConchCommand, parseSlash } from "../input/slash-commands.js";
import type { Launch } from "../launch.js";
import type { SessionPort, TerminalAccess } from "../session-port.js";
import { isBusy } from "../status/status-text.js";
import { useKeypress } from "./use-keypress.js";

/** How long a first Ctrl-C waits for the second. */
export const CTRL_C_WINDOW_MS = 2000;

/** Who gets the keys. */
export type Focus = "input" | "queue" | "permission" | "question" | "auth" | "terminal";

/** A message panel under the input (command output, help). */
export interface Panel {
  lines: string[];
  tone: "info" | "error";
}

/** What the shell needs from the app around it. */
export interface ShellOptions {
  port: SessionPort;
  state: SessionState;
  cwd: string;
  launch?: Launch;
  launchFailed: boolean;
  terminals?: TerminalAccess;
  /** Rows a focused terminal pane shows, for PageUp/PageDown steps. */
  paneRows: number;
  quit(): void;
  clearScreen(): void;
  reprint(): void;
  /** Tool output and thoughts shown in full (/expand). */
  expanded: boolean;
  setExpanded(expanded: boolean): void;
  listSessions?: () => Promise<string>;
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
 * The interactive shell's view state and key handling: who has the keys, the editor, the
 * queue selection, the focused terminal, Ctrl-C arming, the message panel. It turns keys into the
 * session's intents; the session itself decides everything else.
 */
export function useShell(opts: ShellOptions) {
  const { port, state, terminals } = opts;
  const store = useEditorStore();
  const [queueSelected, setQueueSelected] = useState<number | null>(null);
  const [editingQueuedId, setEditingQueuedId] = useState<string | null>(null);
  const [terminalFocus, setTerminalFocus] = useState<{ id: string; scroll: number } | null>(null);
  const [permissionSkipped, setPermissionSkipped] = useState<string | null>(null);
  const [panel, setPanel] = useState<Panel | null>(null);
  const [notes, setNotes] = useState<string[]>([]);
  const [ctrlCArmed, setCtrlCArmed] = useState(false);
  const { expanded, setExpanded } = opts;
  const ctrlCTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(ctrlCTimer.current), []);

  const running = runningClientTerminals(state, terminals);
  const firstPermission = state.permissions[0]?.key;
  const focusedTerminalAlive = terminalFocus !== null && running.includes(terminalFocus.id);
  const focus: Focus = focusedTerminalAlive
    ? "terminal"
    : queueSelected !== null && state.queue.length > 0
      ? "queue"
      : firstPermission !== undefined && firstPermission !== permissionSkipped
        ? "permission"
        : state.questions.length > 0
          ? "question"
          : state.phase === "auth" && state.auth
            ? "auth"
            : "input";

  // Leave a terminal pane when its command ends; leave the queue when it empties.
  useEffect(() => {
    if (terminalFocus && !focusedTerminalAlive) setTerminalFocus(null);
  }, [terminalFocus, focusedTerminalAlive]);
  useEffect(() => {
    if (queueSelected !== null && queueSelected >= state.queue.length) setQueueSelected(state.queue.length ? state.queue.length - 1 : null);
  }, [queueSelected, state.queue.length]);

  const show = useCallback((lines: string | string[], tone: Panel["tone"] = "info") => {
    setPanel({ lines: Array.isArray(lines) ? lines : [lines], tone });
  }, []);

  const restart = () => {
    setPanel(null);
    if (opts.launch) void opts.launch.run(() => port.restart());
    else void port.restart().catch((err: Error) => show(`restart failed: ${err.message}`, "error"));
  };

  const submit = (raw: string) => {
    const text = raw.replace(/\s+$/, "");
    if (!text.trim()) return;
    setPanel(null);
    setNotes([]);
    const cwd = state.info?.cwd ?? opts.cwd;
    if (editingQueuedId) {
      if (state.queue.some((m) => m.id === editingQueuedId)) port.editQueued(editingQueuedId, text);
      else port.send(text);
      setEditingQueuedId(null);
      store.dispatch({ type: "submitted" });
      return;
    }
    const slash = parseSlash(text);
    if (slash && isConchCommand(slash.name)) {
      store.dispatch({ type: "submitted" });
      runConchCommand(slash.name, slash.args, {
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
      });
      return;
    }
    const images = state.info?.agentCapabilities?.promptCapabilities?.image === true;
    const built = buildPrompt(text, { cwd, images });
    port.send(text, built.blocks ?? undefined);
    setNotes(built.notes);
    store.dispatch({ type: "submitted" });
  };

  const cycleMode = () => {
    const modes = state.modes?.availableModes ?? [];
    if (modes.length < 2) return;
    const i = modes.findIndex((m) => m.id === state.modes?.currentModeId);
    void port.setMode(modes[(i + 1) % modes.length].id);
  };

  const focusTerminal = () => {
    if (running.length === 0) return false;
    const current = terminalFocus ? running.indexOf(terminalFocus.id) : -1;
    setTerminalFocus({ id: running[(current + 1) % running.length], scroll: 0 });
    return true;
  };

  /** Keys the editor does not use, while the input has the keys. */
  const onEditorKey = (input: string, key: Key): boolean => {
    if (key.escape) {
      if (isBusy(state) && state.phase !== "replaying") port.cancel();
      else if (editingQueuedId) {
        setEditingQueuedId(null);
        store.dispatch({ type: "clear" });
      } else if (panel || notes.length) {
        setPanel(null);
        setNotes([]);
      }
      return true;
    }
    if (key.tab && key.shift) {
      cycleMode();
      return true;
    }
    if (key.tab && firstPermission !== undefined) {
      setPermissionSkipped(null);
      return true;
    }
    if (key.ctrl && input === "t") return focusTerminal() || true;
    if (key.ctrl && input === "d") {
      if (store.read().text === "") detachWithQueued(port);
      else store.dispatch({ type: "delete" });
      return true;
    }
    if (key.upArrow && store.read().text === "" && state.queue.length > 0) {
      setQueueSelected(state.queue.length - 1);
      return true;
    }
    return false;
  };

  // Ctrl-C: anywhere but a focused terminal, where it belongs to the program running there.
  useKeypress(
    (input, key) => {
      if (!(key.ctrl && input === "c")) return;
      if (ctrlCArmed) {
        opts.quit();
        return;
      }
      setCtrlCArmed(true);
      clearTimeout(ctrlCTimer.current);
      ctrlCTimer.current = setTimeout(() => setCtrlCArmed(false), CTRL_C_WINDOW_MS);
      if (store.read().text !== "") {
        setEditingQueuedId(null);
        store.dispatch({ type: "clear" });
      }
    },
    { isActive: focus !== "terminal" },
  );

  // While a permission prompt has the keys: Esc stops the turn (which answers it cancelled), Tab goes to the input.
  useKeypress(
    (input, key) => {
      if (key.escape) port.cancel();
      else if (key.tab && !key.shift && firstPermission) setPermissionSkipped(firstPermission);
      else if (key.tab && key.shift) cycleMode();
    },
    { isActive: focus === "permission" },
  );

  // A question from the agent has the keys; Esc stops the turn (which cancels the question).
  useKeypress(
    (_input, key) => {
      if (key.escape) port.cancel();
    },
    { isActive: focus === "question" },
  );

  // A focused terminal pane takes every key but Esc (leave), Ctrl-T (next/leave) and PageUp/PageDown (scroll).
  useKeypress(
    (input, key, raw) => {
      if (!terminalFocus) return;
      if (key.escape && (raw === "\x1b" || raw === "")) return setTerminalFocus(null);
      if (key.ctrl && input === "t") {
        const i = running.indexOf(terminalFocus.id);
        return setTerminalFocus(i + 1 < running.length ? { id: running[i + 1], scroll: 0 } : null);
      }
      const step = Math.max(1, Math.floor(opts.paneRows / 2));
      if (key.pageUp) return setTerminalFocus({ ...terminalFocus, scroll: terminalFocus.scroll + step });
      if (key.pageDown) return setTerminalFocus({ ...terminalFocus, scroll: Math.max(0, terminalFocus.scroll - step) });
      if (PASTE_MARKERS.has(raw)) return;
      terminals?.write(terminalFocus.id, ptyBytesFor(input, key, raw));
      if (terminalFocus.scroll) setTerminalFocus({ ...terminalFocus, scroll: 0 });
    },
    { isActive: focus === "terminal" },
  );

  const queue = {
    onSelect: (i: number) => setQueueSelected(i),
    onEdit: (m: QueuedMessage) => {
      setEditingQueuedId(m.id);
      store.dispatch({ type: "set", text: m.text });
      setQueueSelected(null);
    },
    onRemove: (m: QueuedMessage) => {
      port.removeQueued(m.id);
      if (editingQueuedId === m.id) setEditingQueuedId(null);
      const left = state.queue.length - 1;
      setQueueSelected(left > 0 ? Math.min(queueSelected ?? 0, left - 1) : null);
    },
    onLeave: () => setQueueSelected(null),
  };

  return {
    focus,
    editor: store.editor,
    readEditor: store.read,
    dispatchEditor: store.dispatch,
    submit,
    onEditorKey,
    queue,
    queueSelected,
    editingQueuedId,
    editingIndex: editingQueuedId ? state.queue.findIndex((m) => m.id === editingQueuedId) : -1,
    terminalFocus: focusedTerminalAlive ? terminalFocus : null,
    runningTerminals: running,
    panel,
    notes,
    ctrlCArmed,
    expanded,
    answerPermission: (key: string, optionId: string | null) => port.answerPermission(key, optionId),
    answerQuestion: port.answerQuestion.bind(port),
    authenticate: (methodId: string) => void port.authenticate(methodId),
  };
}
