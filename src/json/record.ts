/** Whether a value read from outside (an agent's `_meta`, a raw tool input, a config file) is a plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A plain object, or undefined: for reading the fields of an untyped value, `asRecord(v)?.field`. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}
