/**
 * Runs `fn` once the current prompt's response has been written.
 * The SDK writes a handler's return value within the same macrotask, so a
 * zero timer is enough to put updates after it, as real agents do for
 * `available_commands_update` and background work.
 */
export function afterResponse(fn: () => void): void {
  setTimeout(fn, 0);
}
