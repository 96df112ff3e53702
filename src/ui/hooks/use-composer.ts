import { useRef, type Dispatch } from "react";
import type { CommandContext } from "../commands/command-context.js";
import { conchCommandOf } from "../commands/conch-commands.js";
import { readClipboardImage, type ClipboardRead } from "../compose/clipboard-image.js";
import { editExternally, type TerminalHandoff } from "../compose/external-editor.js";
import { buildPrompt } from "../compose/prompt-blocks.js";
import { commandOutput, outputLabel, shellLineOf } from "../compose/shell-output.js";
import type { ShellAction, ShellState } from "../shell/shell-state.js";
import { isBusy } from "../status/status-text.js";
import type { EditorStore } from "./use-editor-store.js";

/** What the composer works with: the shell's view state, the editor, and what conch's commands may do. */
export interface ComposerOptions {
  shell: ShellState;
  dispatch: Dispatch<ShellAction>;
  store: EditorStore;
  /** The context conch's slash commands run in (the composer adds /paste-image). */
  commands: Omit<CommandContext, "pasteImage">;
  cwd: string;
  /** Lends conch's terminal to the external editor (Ctrl-G); without it there is no editor to run. */
  handoff?: TerminalHandoff;
  /** Reads an image from the clipboard (Alt-V); tests pass their own. */
  readClipboard?: () => Promise<ClipboardRead>;
}

/** What becomes of a written message. */
export interface Composer {
  /** Enter: a conch command runs here, anything else is sent (queued while busy), or replaces the queued message being edited. */
  submit(text: string): void;
  /** Ctrl-S: into the running turn where the agent takes steering; else as Enter, with a note why. */
  steer(): void;
  /** Ctrl-G: the message goes to the person's editor and comes back into the input. */
  editInEditor(): void;
  /** Alt-V or /paste-image: the clipboard's image goes with the message, its label in the text. */
  pasteImage(): void;
  /** The message was thrown away: its pasted images go with it. */
  forgetImages(): void;
  /** `!!cmd`, or `a` on your command in the tasks view: its output's label goes in the message, its output with it. */
  attachOutput(line: string, terminalId: string): void;
}

/** The input's messages: sent, steered, run as conch's commands, edited externally, given images. */
export function useComposer(opts: ComposerOptions): Composer {
  const { shell, dispatch, store, commands } = opts;
  const { port, state, show } = commands;
  const { editingQueuedId } = shell;
  /** Images pasted into the message being written, for their labels. */
  const pasted = useRef(0);

  const forgetImages = () => {
    dispatch({ type: "images-cleared" });
    pasted.current = 0;
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
    const shellLine = shellLineOf(text);
    if (shellLine) {
      store.dispatch({ type: "submitted" });
      runOwnCommand(shellLine.line, shellLine.attach);
      return;
    }
    const conch = conchCommandOf(text);
    if (conch) {
      store.dispatch({ type: "submitted" });
      conch.command.run(conch.args, { ...commands, pasteImage });
      return;
    }
    deliver(text, "send");
  };

  /** `!cmd`: the user's own command runs in a pane of its own; `!!cmd` also puts its output's label in the next message. */
  const runOwnCommand = (line: string, attach: boolean) => {
    if (!line) return show("type a command after ! (!! also attaches its output to your next message)", "error");
    void port.runCommand(line).then((started) => {
      if (started.error || !started.terminalId) return show(started.error ?? `could not run ${line}`, "error");
      if (attach) attachOutput(line, started.terminalId);
    });
  };

  const attachOutput = (line: string, terminalId: string) => {
    const label = outputLabel(line);
    dispatch({ type: "output-attached", label, terminalId });
    store.dispatch({ type: "insert", text: `${label} ` });
    show(`${label}: its output goes with your next message (what it shows when you send)`);
  };

  /** Sends a message the editor holds as a prompt (queued while busy), or steers it into the running turn. */
  const deliver = (text: string, how: "send" | "steer", notes: string[] = []) => {
    const caps = state.info?.agentCapabilities?.promptCapabilities;
    const images = caps?.image === true;
    const outputs = shell.outputs.map((o) => ({ label: o.label, text: commandOutput(state, port.terminals, o.terminalId) }));
    const built = buildPrompt(text, {
      cwd: state.info?.cwd ?? opts.cwd,
      images,
      pasted: shell.images,
      outputs,
      embedded: caps?.embeddedContext === true,
    });
    port[how](text, built.blocks ?? undefined);
    dispatch({ type: "notes-set", notes: [...notes, ...built.notes] });
    forgetImages();
    store.dispatch({ type: "submitted" });
  };

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

  const editInEditor = () => {
    if (!opts.handoff) return show("the external editor needs conch's own terminal", "error");
    const result = editExternally(store.read().text, { env: process.env, handoff: opts.handoff });
    if (!result.ok) return show(result.message, "error");
    store.dispatch({ type: "set", text: result.text });
  };

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

  return { submit, steer, editInEditor, pasteImage, forgetImages, attachOutput };
}
