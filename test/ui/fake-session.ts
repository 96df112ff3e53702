import type { ContentBlock, CreateElicitationResponse, RequestPermissionRequest, SessionNotification } from "@agentclientprotocol/sdk";
import type { UndoAnswer, UndoOutcome, UndoPlan } from "../../src/orchestrator/undo/turn-undo.js";
import type { SessionEvent, SessionEventInput } from "../../src/session/events.js";
import { reduce } from "../../src/session/reduce.js";
import { initialSessionState, type SessionState } from "../../src/session/state.js";
import type { SessionPort } from "../../src/ui/session-port.js";

/** One intent the UI called, for assertions. */
export type Call = { intent: string; args: unknown[] };

/**
 * A session the UI can render: state folded by the real reducer from events the test feeds,
 * and intents that are only recorded (plus the obvious state change where a test wants it).
 */
export class FakeSession implements SessionPort {
  state: SessionState = initialSessionState();
  calls: Call[] = [];
  private listeners = new Set<(s: SessionState) => void>();
  private clock = Date.now();
  private turn = 0;

  subscribe(fn: (s: SessionState) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  emit(input: SessionEventInput): void {
    this.clock = Math.max(this.clock + 1, Date.now());
    this.state = reduce(this.state, { ...input, at: this.clock } as SessionEvent);
    for (const fn of this.listeners) fn(this.state);
  }

  /** A session opened with the demo's modes and no turn yet. */
  open(extra: Partial<Extract<SessionEventInput, { type: "session_started" }>["info"]> = {}): this {
    this.emit({
      type: "session_started",
      info: {
        sessionId: "s1",
        cwd: "/tmp/project",
        agentName: "fake",
        agentInfo: { name: "fake-agent", title: "Fake Agent", version: "1" },
        origin: "new",
        modes: {
          currentModeId: "code",
          availableModes: [
            { id: "ask", name: "Ask" },
            { id: "code", name: "Code" },
          ],
        },
        ...extra,
      },
    });
    return this;
  }

  update(update: SessionNotification["update"]): void {
    this.emit({ type: "update", notification: { sessionId: "s1", update } });
  }

  chunk(text: string): void {
    this.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
  }

  /** Starts a prompt as the orchestrator would. */
  prompt(text: string): string {
    const turnId = `t${++this.turn}`;
    this.emit({ type: "prompt_sent", turnId, prompt: [{ type: "text", text }] });
    return turnId;
  }

  respond(turnId: string): void {
    this.emit({ type: "prompt_response", turnId, response: { stopReason: "end_turn" } });
  }

  askPermission(key: string, toolCallId: string, title: string): void {
    const request: RequestPermissionRequest = {
      sessionId: "s1",
      toolCall: { toolCallId, title, kind: "execute", status: "pending" },
      options: [
        { optionId: "yes", name: "Allow", kind: "allow_once" },
        { optionId: "no", name: "Reject", kind: "reject_once" },
      ],
    };
    this.emit({ type: "permission_asked", key, request });
  }

  private record(intent: string, ...args: unknown[]): void {
    this.calls.push({ intent, args });
  }

  send(text: string, blocks?: ContentBlock[]): void {
    this.record("send", text, blocks);
    if (this.state.phase === "idle" && this.state.queue.length === 0) this.prompt(text);
    else this.emit({ type: "queue_added", id: `q${this.calls.length}`, text });
  }
  sendNow(text: string, blocks?: ContentBlock[]): void {
    this.record("sendNow", text, blocks);
  }
  steer(text: string, blocks?: ContentBlock[]): void {
    this.record("steer", text, blocks);
  }
  detach(): void {
    this.record("detach");
  }
  cancel(): void {
    this.record("cancel");
  }
  answerPermission(key: string, optionId: string | null): void {
    this.record("answerPermission", key, optionId);
    this.emit({
      type: "permission_answered",
      key,
      outcome: optionId ? { outcome: "selected", optionId } : { outcome: "cancelled" },
      source: "user",
    });
  }
  answerQuestion(key: string, response: CreateElicitationResponse): void {
    this.record("answerQuestion", key, response);
    this.emit({ type: "question_answered", key, response, source: "user" });
  }
  async authenticate(methodId: string): Promise<void> {
    this.record("authenticate", methodId);
  }
  editQueued(id: string, text: string): void {
    this.record("editQueued", id, text);
    this.emit({ type: "queue_edited", id, text });
  }
  removeQueued(id: string): void {
    this.record("removeQueued", id);
    this.emit({ type: "queue_removed", id });
  }
  async setMode(modeId: string): Promise<void> {
    this.record("setMode", modeId);
  }
  async setModel(modelId: string): Promise<void> {
    this.record("setModel", modelId);
  }
  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    this.record("setConfigOption", configId, value);
  }
  async newConversation(): Promise<void> {
    this.record("newConversation");
  }
  async fork(): Promise<void> {
    this.record("fork");
  }
  async logout(): Promise<void> {
    this.record("logout");
  }
  async restart(): Promise<void> {
    this.record("restart");
  }
  /** What planUndo answers; a test sets it. */
  undoAnswer: UndoAnswer = { kind: "message", lines: ["nothing to undo"] };
  async planUndo(ref?: string): Promise<UndoAnswer> {
    this.record("planUndo", ref);
    return this.undoAnswer;
  }
  async applyUndo(plan: UndoPlan): Promise<UndoOutcome | string> {
    this.record("applyUndo", plan.turnId);
    return { restored: plan.files.map((f) => f.path), deleted: [], skipped: [] };
  }

  /** The intents called, by name. */
  intents(): string[] {
    return this.calls.map((c) => c.intent);
  }
}

/** Lets Ink's input parser, effects and timers run. */
export const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` passes (Ink renders and re-subscribes key handlers asynchronously), or fails after `ms`: a safety net for a loaded machine, not a timing assertion. */
export async function until(check: () => void, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await tick(10);
    }
  }
}

/** Key bytes as a terminal sends them. */
export const KEY = {
  enter: "\r",
  escape: "\x1b",
  up: "\x1b[A",
  down: "\x1b[B",
  left: "\x1b[D",
  right: "\x1b[C",
  tab: "\t",
  shiftTab: "\x1b[Z",
  backspace: "\x7f",
  ctrlC: "\x03",
  ctrlD: "\x04",
  ctrlT: "\x14",
  altEnter: "\x1b\r",
} as const;

/** Strips ANSI styling from a frame. */
export function plain(frame: string | undefined): string {
  return (frame ?? "").replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
}
