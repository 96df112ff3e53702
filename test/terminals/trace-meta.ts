import { readFileSync } from "node:fs";
import path from "node:path";

const TRACES = path.resolve(__dirname, "../../../shared/traces");

/**
 * Every tool call `_meta` an agent sent in a recorded trace, in wire order: from `session/update`
 * notifications and from the `toolCall` of permission requests.
 */
export function toolCallMetas(trace: string): Array<Record<string, unknown>> {
  const metas: Array<Record<string, unknown>> = [];
  for (const line of readFileSync(path.join(TRACES, trace), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const entry = JSON.parse(line) as { dir: string; msg?: { method?: string; params?: Record<string, unknown> } };
    if (entry.dir !== "agent" || !entry.msg?.params) continue;
    const { method, params } = entry.msg;
    const carrier = method === "session/update" ? params.update : method === "session/request_permission" ? params.toolCall : undefined;
    const meta = (carrier as { _meta?: unknown } | undefined)?._meta;
    if (meta && typeof meta === "object") metas.push(meta as Record<string, unknown>);
  }
  return metas;
}
