/**
 * Resolves once the event loop has been through its poll phase, where the terminal's keys are
 * read: one `setImmediate` from a task of the poll phase runs in the same turn's check phase,
 * before any read, so a long task after it would still hold up a key typed meanwhile.
 */
export function afterInput(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
