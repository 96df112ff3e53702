import { chmodSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import type { ContentBlock, CreateElicitationResponse } from "@agentclientprotocol/sdk";
import type { SessionEventInput } from "../session/events.js";
import type { SessionState } from "../session/state.js";
import type { CommandStart, Task } from "../session/tasks.js";
import { CONTROL_VERSION, encodeMessage, LineReader, parseClientMessage, type Intent, type ServerMessage } from "./control-protocol.js";
import { ensureOwnPrivateDir, prepareEndpoint, removeEndpoint, tokenMatches, type ControlEndpoint } from "./control-socket.js";
import { describeIntent } from "./intent-words.js";
import { dirname } from "node:path";

/** What the socket drives: the session's intents, as the TUI calls them (the orchestrator is one). */
export interface ControlTarget {
  readonly state: SessionState;
  dispatch(input: SessionEventInput): void;
  answerPermission(key: string, optionId: string | null, via?: "attached"): void;
  answerQuestion(key: string, response: CreateElicitationResponse): void;
  send(text: string, blocks?: ContentBlock[]): void;
  sendNow(text: string, blocks?: ContentBlock[]): void;
  steer(text: string, blocks?: ContentBlock[]): void;
  detach(): void;
  cancel(): void;
  editQueued(id: string, text: string): void;
  removeQueued(id: string): void;
  runCommand(line: string): Promise<CommandStart>;
  stopTask(taskId: string): Promise<string | undefined>;
  listTasks(): Promise<Task[]>;
  /** Types into a client terminal (a pane the attached terminal focused). */
  typeInto(terminalId: string, data: string): void;
}

/** How long a connection may take to say hello before it is closed. */
const HELLO_MS = 5000;

/**
 * The running conch's control socket: another terminal of the same user attaches to write
 * (`conch attach --write`) and sends the TUI's intents, which run here exactly as the TUI's do (the
 * orchestrator stays the only writer of the session). One writer at a time; each thing it does is
 * an event of the session (`remote_writer`), so the owner's screen (and the log) says what happened.
 */
export class ControlServer {
  private server?: Server;
  private writer?: { socket: Socket; pid: number };
  readonly endpoint: ControlEndpoint;

  private constructor(
    private readonly target: ControlTarget,
    stateRoot: string,
  ) {
    this.endpoint = prepareEndpoint(stateRoot);
  }

  /** Listens on a fresh private socket; resolves with the server (its `endpoint` says where). */
  static async start(target: ControlTarget, stateRoot: string): Promise<ControlServer> {
    const control = new ControlServer(target, stateRoot);
    await control.listen();
    return control;
  }

  private listen(): Promise<void> {
    const { socketPath } = this.endpoint;
    // Checked again right before the bind: the folder must still be ours and private.
    ensureOwnPrivateDir(dirname(socketPath));
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => {
        server.off("error", reject);
        server.on("error", () => undefined);
        chmodSync(socketPath, 0o600);
        server.unref();
        resolve();
      });
    });
  }

  private accept(socket: Socket): void {
    socket.setEncoding("utf8");
    socket.unref();
    const reader = new LineReader();
    let hello = false;
    const timer = setTimeout(() => socket.destroy(), HELLO_MS);
    timer.unref();
    const send = (msg: ServerMessage) => {
      if (!socket.destroyed) socket.write(encodeMessage(msg));
    };
    const refuse = (reason: string) => {
      send({ t: "refused", reason });
      socket.end();
    };
    socket.on("data", (chunk: string) => {
      for (const line of reader.push(chunk)) {
        const msg = parseClientMessage(line);
        if (!hello) {
          clearTimeout(timer);
          if (msg?.t !== "hello" || !tokenMatches(msg.token, this.endpoint.token)) return refuse("not allowed: the token does not match");
          if (msg.v !== CONTROL_VERSION) return refuse(`this conch speaks control protocol ${CONTROL_VERSION}, the attached one ${msg.v}`);
          const current = this.target.state.info?.sessionId;
          if (msg.sessionId !== current) return refuse(`this conch now runs session ${current ?? "(none yet)"}, not ${msg.sessionId}`);
          if (this.writer && !this.writer.socket.destroyed)
            return refuse(`another terminal (conch pid ${this.writer.pid}) is attached to write; only one may be`);
          this.writer = { socket, pid: msg.pid };
          hello = true;
          send({ t: "welcome", v: CONTROL_VERSION, pid: process.pid });
          this.target.dispatch({ type: "remote_writer", pid: msg.pid });
          continue;
        }
        if (msg?.t !== "intent") continue;
        void this.run(msg.intent, this.writer?.pid ?? 0).then((r) => send({ t: "done", id: msg.id, ...r }));
      }
      if (reader.overflow) socket.destroy();
    });
    const gone = () => {
      clearTimeout(timer);
      if (this.writer?.socket !== socket) return;
      this.writer = undefined;
      this.target.dispatch({ type: "remote_writer", pid: null });
    };
    socket.on("close", gone);
    socket.on("error", () => socket.destroy());
  }

  /** Carries out one intent as the TUI would, and says in the session what the other terminal did. */
  private async run(intent: Intent, pid: number): Promise<{ error?: string; tasks?: Task[]; terminalId?: string }> {
    const t = this.target;
    const said = describeIntent(t.state, intent);
    const tell = () => said && t.dispatch({ type: "remote_writer", pid, did: said });
    switch (intent.kind) {
      case "answer_permission":
        if (!t.state.permissions.some((p) => p.key === intent.key)) return { error: "that request is no longer waiting" };
        t.answerPermission(intent.key, intent.optionId, "attached");
        break;
      case "answer_question":
        if (!t.state.questions.some((q) => q.key === intent.key)) return { error: "that question is no longer waiting" };
        t.answerQuestion(intent.key, intent.response);
        break;
      case "send":
      case "send_now":
      case "steer":
        t[intent.kind === "send_now" ? "sendNow" : intent.kind](intent.text, intent.blocks as ContentBlock[] | undefined);
        break;
      case "detach":
        t.detach();
        break;
      case "cancel":
        t.cancel();
        break;
      case "edit_queued":
        t.editQueued(intent.id, intent.text);
        break;
      case "remove_queued":
        t.removeQueued(intent.id);
        break;
      case "run_command": {
        const started = await t.runCommand(intent.line);
        if (started.error) return { error: started.error };
        tell();
        return { terminalId: started.terminalId };
      }
      case "stop_task": {
        tell();
        const error = await t.stopTask(intent.taskId);
        return error ? { error } : {};
      }
      case "list_tasks":
        return { tasks: await t.listTasks() };
      case "type":
        t.typeInto(intent.terminalId, intent.data);
        return {};
    }
    tell();
    return {};
  }

  /** Stops listening, drops the writer, removes the socket and its token. */
  close(): void {
    this.writer?.socket.destroy();
    this.writer = undefined;
    this.server?.close();
    removeEndpoint(this.endpoint);
  }
}
