/** A JSON-RPC id as it appears on the wire. */
export type JsonRpcId = string | number;

/** A parsed JSON object whose fields are not yet narrowed. */
export interface JsonObject {
  [key: string]: unknown;
}

/** A JSON-RPC message sorted by shape; `msg` is the whole message, untouched. */
export type RpcMessage =
  | { kind: "request"; id: JsonRpcId; method: string; msg: JsonObject }
  | { kind: "notification"; method: string; msg: JsonObject }
  | { kind: "response"; id: JsonRpcId; msg: JsonObject };

/** A request or notification: something that names a method. */
export type RpcCall = Extract<RpcMessage, { method: string }>;

/** Narrow an unknown value to a plain JSON object. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || typeof value === "number";
}

/** Sort a parsed message into request / notification / response, or undefined if it is neither. */
export function classifyMessage(msg: unknown): RpcMessage | undefined {
  if (!isJsonObject(msg)) return undefined;
  const method = msg.method;
  if (typeof method === "string") {
    return isId(msg.id) ? { kind: "request", id: msg.id, method, msg } : { kind: "notification", method, msg };
  }
  if (isId(msg.id) && ("result" in msg || "error" in msg)) return { kind: "response", id: msg.id, msg };
  return undefined;
}

/** A map key for an id that keeps `1` and `"1"` apart. */
export function idKey(id: JsonRpcId): string {
  return `${typeof id}:${String(id)}`;
}

/** A copy of `msg` with another id; the key stays where it was, so field order is kept. */
export function withId(msg: JsonObject, id: JsonRpcId): JsonObject {
  return { ...msg, id };
}

/** The error response for a request the trace has no answer for. */
export function methodNotFound(id: JsonRpcId, method: string): JsonObject {
  return { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found", data: { method } } };
}
