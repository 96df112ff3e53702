import type { Dispatch } from "react";
import type { QueuedMessage, SessionState } from "../../session/state.js";
import type { EditorStore } from "./use-editor-store.js";
import type { SessionPort } from "../session-port.js";
import type { ShellAction, ShellState } from "../shell/shell-state.js";

/** The queue view's callbacks. */
export interface QueueHandlers {
  onSelect(i: number): void;
  onEdit(m: QueuedMessage): void;
  onRemove(m: QueuedMessage): void;
  onLeave(): void;
}

/** What the queue view's keys do: select, edit in the input, remove (the selection stays in the queue), leave. */
export function queueHandlers(ctx: {
  port: SessionPort;
  state: SessionState;
  shell: ShellState;
  dispatch: Dispatch<ShellAction>;
  store: EditorStore;
}): QueueHandlers {
  const { port, state, dispatch, store } = ctx;
  const { editingQueuedId, queueSelected } = ctx.shell;
  return {
    onSelect: (i: number) => dispatch({ type: "queue-selected", index: i }),
    onEdit: (m: QueuedMessage) => {
      dispatch({ type: "queue-edit-started", id: m.id });
      store.dispatch({ type: "set", text: m.text });
    },
    onRemove: (m: QueuedMessage) => {
      // Read before the intent: a session whose state is reduced in place (the orchestrator's was)
      // has the queue one shorter after it, and the index would land one too far up.
      const at = state.queue.findIndex((q) => q.id === m.id);
      const left = state.queue.length - 1;
      port.removeQueued(m.id);
      if (editingQueuedId === m.id) dispatch({ type: "queue-edit-ended" });
      // The message that took its place (the one before, when it was the last) keeps the keys.
      dispatch({ type: "queue-selected", index: left > 0 ? Math.min(at >= 0 ? at : (queueSelected ?? 0), left - 1) : null });
    },
    onLeave: () => dispatch({ type: "queue-selected", index: null }),
  };
}
