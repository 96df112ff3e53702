import type { RequestPermissionRequest, SessionNotification } from "@agentclientprotocol/sdk";
import { INTENT_NAMES, type IntentName } from "../../src/orchestrator/intents.js";
import type { Intents } from "../../src/orchestrator/orchestrator.js";
import { sendsAtOnce } from "../../src/orchestrator/turn-machine.js";
import type { UndoAnswer } from "../../src/session/undo-plan.js";
import type { SessionEvent, SessionEventInput } from "../../src/session/events.js";
import { reduce, reduceBatch } from "../../src/session/reduce.js";
import { initialSessionState, type SessionState } from "../../src/session/state.js";

/** One intent the UI called, for assertions. */
export type Call = { intent: string; args: unknown[] };

/** What an intent does in the fake besides being recorded. */
type Behaviours = { [K in IntentName]?: (...args: Parameters<Intents[K]>) => ReturnType<Intents[K]> };

/**
 * A session the UI can render: state folded by the real reducer from events the test feeds, and
 * every intent of `orchestrator/intents.ts`, recorded. A few also fold the event their part would
 * (a send prompts or queues by the turn machine's own rule, an answer or a queue edit is folded);
 * the others only record (and resolve, for the ones that return a promise).
 */
class FakeSessionCore {
  state: SessionState = initialSessionState();
  calls: Call[] = [];
  /** What planUndo answers; a test sets it. */
  undoAnswer: UndoAnswer = { kind: "message", lines: ["nothing to undo"] };
  private listeners = new Set<(s: SessionState) => void>();
  private clock = Date.now();
  private turn = 0;

  /** `inPlace`: fold changing the state's collections in place (a state read earlier sees the change), as the orchestrator did before its states were frozen snapshots: a handler must read what it needs before its intent. */
  constructor(private readonly inPlace = false) {
    const behaviours = this.behaviours();
    for (const name of INTENT_NAMES) {
      const behaviour = behaviours[name] as ((...args: unknown[]) => unknown) | undefined;
      const intent = (...args: unknown[]) => {
        this.calls.push({ intent: name, args });
        return behaviour ? behaviour(...args) : Promise.resolve(undefined);
      };
      Object.assign(this, { [name]: intent });
    }
  }

  private behaviours(): Behaviours {
    return {
      send: (text) => {
        if (sendsAtOnce(this.state)) this.prompt(text);
        else this.emit({ type: "queue_added", id: `q${this.calls.length}`, text });
      },
      answerPermission: (key, optionId) =>
        this.emit({
          type: "permission_answered",
          key,
          outcome: optionId ? { outcome: "selected", optionId } : { outcome: "cancelled" },
          source: "user",
        }),
      answerQuestion: (key, response) => this.emit({ type: "question_answered", key, response, source: "user" }),
      editQueued: (id, text) => this.emit({ type: "queue_edited", id, text }),
      removeQueued: (id) => this.emit({ type: "queue_removed", id }),
      planUndo: async () => this.undoAnswer,
      planRedo: async () => ({ kind: "message", lines: ["nothing to redo"] }),
      permissionRules: () => [],
      removePermissionRule: () => "this session has no rules",
      applyUndo: async (plan) => ({ restored: plan.files.map((f) => f.path), deleted: [], skipped: [] }),
    };
  }

  subscribe(fn: (s: SessionState) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  emit(input: SessionEventInput): void {
    this.clock = Math.max(this.clock + 1, Date.now());
    const ev = { ...input, at: this.clock } as SessionEvent;
    this.state = this.inPlace ? reduceBatch(this.state, [ev], { transient: true }) : reduce(this.state, ev);
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

  /** The intents called, by name. */
  intents(): string[] {
    return this.calls.map((c) => c.intent);
  }
}

/** The fake session: its core and every intent (a `SessionPort`). */
export type FakeSession = FakeSessionCore & Intents;
export const FakeSession = FakeSessionCore as new (inPlace?: boolean) => FakeSession;

/** Lets Ink's input parser, effects and timers run. */
export const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` passes (Ink renders and re-subscribes key handlers asynchronously): the tests' one poll. */
export { untilPasses as until } from "../support/wait.js";

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
