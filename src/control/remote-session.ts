import type { ContentBlock, CreateElicitationResponse } from "@agentclientprotocol/sdk";
import { ConchError } from "../errors/conch-error.js";
import type { FollowedSession } from "../orchestrator/follow/followed-session.js";
import type { SessionState } from "../session/state.js";
import type { CommandStart, Task } from "../session/tasks.js";
import type { TerminalAccess } from "../terminals/terminal-access.js";
import type { Terminal } from "../terminals/terminal.js";
import type { UndoAnswer } from "../session/undo-plan.js";
import type { ControlClient } from "./control-client.js";
import type { Intent } from "./control-protocol.js";

/**
 * A session run by another conch, as `conch attach --write` drives it: what it shows is the
 * session's log folded here (as plain `conch attach` does), and what the person does goes to that
 * conch as the TUI's own intents over its control socket. What only the conch that runs the
 * session can do (start the agent again, switch sessions or settings, log in, undo) is refused
 * with a sentence that says where to do it.
 */
export class RemoteSession {
  readonly terminals: TerminalAccess;

  constructor(
    private readonly followed: FollowedSession,
    private readonly client: ControlClient,
  ) {
    const screens = followed.terminals;
    this.terminals = {
      get: (id: string): Terminal | undefined => screens.get(id),
      // Keys for a pane go to the command where it runs.
      write: (id: string, data: string) => void this.client.send({ kind: "type", terminalId: id, data }),
      onScreenChange: (fn) => screens.onScreenChange(fn),
    };
  }

  get state(): SessionState {
    return this.followed.state;
  }

  subscribe(fn: (state: SessionState) => void): () => void {
    return this.followed.subscribe(fn);
  }

  /** Sends an intent; what went wrong is said in this view (a line of its own, not in the log). */
  private act(intent: Intent): void {
    void this.client.send(intent).then((r) => {
      if (r.error) this.say("error", r.error);
    });
  }

  /** A line in this view only: the log is the other conch's to write. */
  private say(level: "info" | "warning" | "error", text: string): void {
    this.followed.apply([{ type: "notice", at: Date.now(), level, text }]);
  }

  private refusal(what: string): string {
    return `${what} is done in the conch that runs this session (pid ${this.client.ownerPid}), not from an attached terminal`;
  }

  private refused(what: string): ConchError {
    const text = this.refusal(what);
    this.say("warning", text);
    return new ConchError("usage", text);
  }

  send(text: string, blocks?: ContentBlock[]): void {
    this.act({ kind: "send", text, blocks });
  }
  sendNow(text: string, blocks?: ContentBlock[]): void {
    this.act({ kind: "send_now", text, blocks });
  }
  steer(text: string, blocks?: ContentBlock[]): void {
    this.act({ kind: "steer", text, blocks });
  }
  detach(): void {
    this.act({ kind: "detach" });
  }
  cancel(): void {
    this.act({ kind: "cancel" });
  }
  answerPermission(key: string, optionId: string | null): void {
    this.act({ kind: "answer_permission", key, optionId });
  }
  answerQuestion(key: string, response: CreateElicitationResponse): void {
    this.act({ kind: "answer_question", key, response });
  }
  editQueued(id: string, text: string): void {
    this.act({ kind: "edit_queued", id, text });
  }
  removeQueued(id: string): void {
    this.act({ kind: "remove_queued", id });
  }

  async listTasks(): Promise<Task[]> {
    const r = await this.client.send({ kind: "list_tasks" });
    if (r.error) this.say("error", r.error);
    return r.tasks ?? [];
  }
  async stopTask(taskId: string): Promise<string | undefined> {
    return (await this.client.send({ kind: "stop_task", taskId })).error;
  }
  async runCommand(line: string): Promise<CommandStart> {
    const r = await this.client.send({ kind: "run_command", line });
    return { terminalId: r.terminalId, error: r.error };
  }

  async authenticate(): Promise<void> {
    this.refused("logging in");
  }
  async setMode(): Promise<ConchError> {
    return this.refused("switching modes");
  }
  async setModel(): Promise<ConchError> {
    return this.refused("switching models");
  }
  async setConfigOption(): Promise<ConchError> {
    return this.refused("changing the agent's settings");
  }
  async newConversation(): Promise<void> {
    this.refused("/clear");
  }
  async fork(): Promise<void> {
    this.refused("/fork");
  }
  async logout(): Promise<void> {
    this.refused("/logout");
  }
  async restart(): Promise<void> {
    this.refused("/restart");
  }
  async planUndo(): Promise<UndoAnswer> {
    return { kind: "message", lines: [this.refusal("/undo")], error: true };
  }
  async applyUndo(): Promise<string> {
    return this.refusal("/undo");
  }
  async planRedo(): Promise<UndoAnswer> {
    return { kind: "message", lines: [this.refusal("/redo")], error: true };
  }
  /** The rules live in the conch that runs the session: none are listed here. */
  permissionRules(): [] {
    this.say("warning", this.refusal("/permissions"));
    return [];
  }
  removePermissionRule(): string {
    return this.refusal("removing a permission rule");
  }
}
