/** Keys whose values are secrets wherever they appear. */
const SECRET_KEY = /(token|secret|password|passwd|api[_-]?key|authorization|credential|cookie)/i;
/** Values that look like credentials even under an innocent key. */
const SECRET_VALUE = /\b(sk-[A-Za-z0-9_-]{8,}|sk-ant-[A-Za-z0-9_-]{8,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abp]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{20,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})\b/g;

/**
 * A copy of a JSON value with secrets replaced by "[redacted]": values under secret-looking keys
 * (including `{name, value}` env/header pairs), and strings that look like API keys or tokens.
 * Used for traces and logs, which people attach to bug reports.
 */
export function redactSecrets<T>(value: T): T {
  return redact(value) as T;
}

function redact(value: unknown, key = ""): unknown {
  if (typeof value === "string") {
    if (key && SECRET_KEY.test(key)) return "[redacted]";
    return value.replace(SECRET_VALUE, "[redacted]");
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, key));
  if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    // {name: "API_KEY", value: "…"} pairs: MCP env and headers.
    const pairSecret = typeof obj.name === "string" && "value" in obj && SECRET_KEY.test(obj.name);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) out[k] = pairSecret && k === "value" ? "[redacted]" : redact(v, k);
    return out;
  }
  return value;
}
