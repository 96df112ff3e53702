import { connect, type Socket } from "node:net";
import type { Task } from "../session/tasks.js";
import { CONTROL_VERSION, encodeMessage, LineReader, type Intent, type ServerMessage } from "./control-protocol.js";
import { readToken } from "./control-socket.js";

/** What became of one intent: done, or why not. */
export interface IntentResult {
  error?: string;
  tasks?: Task[];
  /** The terminal a `run_command` started. */
  terminalId?: string;
}

/** How long the hello may take: a live conch answers at once. */
const HELLO_MS = 5000;

/**
 * The attached terminal's end of a running conch's control socket: it proves it is the same user
 * (the token beside the socket), names the session it means, and sends intents. Each intent
 * resolves with conch's answer, or with an error once the connection is gone (the view reads from
 * the log whether it got there: nothing is silently lost).
 */
export class ControlClient {
  private nextId = 1;
  private waiting = new Map<number, (r: IntentResult) => void>();
  private closedBecause?: string;
  private readonly closeListeners = new Set<(reason: string) => void>();

  private constructor(
    private readonly socket: Socket,
    /** The pid of the conch that runs the session. */
    readonly ownerPid: number,
  ) {}

  /** Connects and says hello; rejects with a sentence for the person when conch refuses or cannot be reached. */
  static connect(socketPath: string, sessionId: string): Promise<ControlClient> {
    let token: string;
    try {
      token = readToken(socketPath);
    } catch (err) {
      return Promise.reject(new Error(`cannot read the control token beside ${socketPath}: ${(err as Error).message}`));
    }
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      socket.setEncoding("utf8");
      const reader = new LineReader();
      let client: ControlClient | undefined;
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error("the conch running this session did not answer"));
      }, HELLO_MS);
      socket.on("connect", () => socket.write(encodeMessage({ t: "hello", v: CONTROL_VERSION, token, sessionId, pid: process.pid })));
      socket.on("data", (chunk: string) => {
        for (const line of reader.push(chunk)) {
          let msg: ServerMessage;
          try {
            msg = JSON.parse(line) as ServerMessage;
          } catch {
            continue;
          }
          if (!client) {
            clearTimeout(timer);
            if (msg.t === "welcome") {
              client = new ControlClient(socket, msg.pid);
              resolve(client);
            } else {
              socket.destroy();
              reject(new Error(msg.t === "refused" ? msg.reason : "the conch running this session answered something unexpected"));
            }
            continue;
          }
          if (msg.t === "done") client.settle(msg.id, { error: msg.error, tasks: msg.tasks, terminalId: msg.terminalId });
        }
      });
      socket.on("error", (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const reason =
          err.code === "ENOENT" || err.code === "ECONNREFUSED"
            ? "no conch is running this session now"
            : `the control socket failed: ${err.message}`;
        if (!client) reject(new Error(reason));
        else client.gone(reason);
      });
      socket.on("close", () => client?.gone("the conch running this session has gone"));
    });
  }

  /** Sends an intent; resolves with what conch says of it (an error once the connection is gone). */
  send(intent: Intent): Promise<IntentResult> {
    if (this.closedBecause) return Promise.resolve({ error: this.closedBecause });
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.socket.write(encodeMessage({ t: "intent", id, intent }));
    });
  }

  /** Why the connection is gone, once it is. */
  get closed(): string | undefined {
    return this.closedBecause;
  }

  /** Calls `fn` once the connection is gone. */
  onClose(fn: (reason: string) => void): () => void {
    this.closeListeners.add(fn);
    return () => this.closeListeners.delete(fn);
  }

  /** Hangs up. */
  close(): void {
    this.socket.end();
    this.gone("detached");
  }

  private settle(id: number, result: IntentResult): void {
    const fn = this.waiting.get(id);
    this.waiting.delete(id);
    fn?.(result);
  }

  private gone(reason: string): void {
    if (this.closedBecause) return;
    this.closedBecause = reason;
    for (const fn of this.waiting.values()) fn({ error: `${reason}: not confirmed (the transcript shows whether it got there)` });
    this.waiting.clear();
    for (const fn of this.closeListeners) fn(reason);
  }
}
