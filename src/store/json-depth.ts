/** What replaces a value nested deeper than a log keeps. */
export const NESTED_TOO_DEEP = "[nested too deep]";

/**
 * A copy of a JSON value with everything nested deeper than `maxDepth` replaced by a marker,
 * made with its own stack: JSON.stringify (and a recursive copy) overflow the call stack on a
 * message nested 100k deep, which an agent can send.
 */
export function capDepth<T>(value: T, maxDepth: number): T {
  let result: unknown;
  const stack: { src: unknown; depth: number; set: (v: unknown) => void }[] = [{ src: value, depth: 0, set: (v) => (result = v) }];
  while (stack.length > 0) {
    const { src, depth, set } = stack.pop()!;
    if (src === null || typeof src !== "object") set(src);
    else if (depth >= maxDepth) set(NESTED_TOO_DEEP);
    else if (Array.isArray(src)) {
      const out: unknown[] = new Array(src.length);
      set(out);
      src.forEach((item, i) => stack.push({ src: item, depth: depth + 1, set: (v) => (out[i] = v) }));
    } else {
      const out: Record<string, unknown> = {};
      set(out);
      for (const [k, v] of Object.entries(src as Record<string, unknown>)) {
        // Placed now, filled later, so the copy keeps the key order; "__proto__" stays a key.
        Object.defineProperty(out, k, { value: undefined, enumerable: true, writable: true, configurable: true });
        stack.push({ src: v, depth: depth + 1, set: (r) => (out[k] = r) });
      }
    }
  }
  return result as T;
}
