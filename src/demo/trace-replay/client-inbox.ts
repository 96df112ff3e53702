import { idKey, type JsonObject, type JsonRpcId, type RpcCall } from "./jsonrpc.js";

/**
 * Client messages that arrived before the trace reached them: calls queued per method (in
 * arrival order), responses to agent requests kept by id. The replay takes them when due.
 */
export class ClientInbox {
  private readonly calls = new Map<string, RpcCall[]>();
  private readonly responses = new Map<string, JsonObject>();
  private waiters: (() => void)[] = [];

  /** Queue a request or notification. */
  addCall(call: RpcCall): void {
    const queue = this.calls.get(call.method) ?? [];
    queue.push(call);
    this.calls.set(call.method, queue);
    this.notify();
  }

  /** Keep the client's response to agent request `id`. */
  addResponse(id: JsonRpcId, msg: JsonObject): void {
    this.responses.set(idKey(id), msg);
    this.notify();
  }

  /** How many calls of `method` are queued. */
  queuedCalls(method: string): number {
    return this.calls.get(method)?.length ?? 0;
  }

  /** The oldest queued call of `method`, removed from the queue. */
  takeCall(method: string): RpcCall | undefined {
    return this.calls.get(method)?.shift();
  }

  /** The response to agent request `id`, removed. */
  takeResponse(id: JsonRpcId): JsonObject | undefined {
    const key = idKey(id);
    const msg = this.responses.get(key);
    this.responses.delete(key);
    return msg;
  }

  /** Resolves at the next arrival, or when `interrupt` is called. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Wake every waiter without a new message (the replay is stopping). */
  interrupt(): void {
    this.notify();
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
