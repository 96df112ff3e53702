import type { SessionState } from "../session/state.js";
import type { Intent } from "./control-protocol.js";

/** How an option's kind reads in a sentence. */
const OPTION_WORDS: Record<string, string> = {
  allow_once: "allow once",
  allow_always: "allow always",
  reject_once: "reject",
  reject_always: "reject always",
};

/** The first line of a message, short. */
function gist(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/**
 * What the other terminal did, in the words the owner's screen shows after "from another
 * terminal:" (read before the intent runs: an answered request is gone after). Undefined for what
 * changes nothing worth a line (a task list, keys typed into a pane).
 */
export function describeIntent(state: SessionState, intent: Intent): string | undefined {
  switch (intent.kind) {
    case "answer_permission": {
      const p = state.permissions.find((x) => x.key === intent.key);
      const option = p?.options.find((o) => o.optionId === intent.optionId);
      const what = option ? (OPTION_WORDS[option.kind] ?? option.name) : "cancelled";
      const title = p?.request.toolCall.title;
      return `answered ${what}${title ? ` (${gist(title)})` : ""}`;
    }
    case "answer_question":
      return `answered the agent's question (${intent.response.action})`;
    case "send":
      return state.phase === "idle" && state.queue.length === 0 ? `sent “${gist(intent.text)}”` : `queued “${gist(intent.text)}”`;
    case "send_now":
      return `sent “${gist(intent.text)}” now`;
    case "steer":
      return `steered “${gist(intent.text)}” into the turn`;
    case "detach":
      return "sent the queued messages now";
    case "cancel":
      return "cancelled the turn";
    case "edit_queued":
      return "edited a queued message";
    case "remove_queued":
      return "removed a queued message";
    case "run_command":
      return `ran \`${gist(intent.line)}\``;
    case "stop_task":
      return `asked to stop a task (${intent.taskId})`;
    case "list_tasks":
    case "type":
      return undefined;
  }
}
