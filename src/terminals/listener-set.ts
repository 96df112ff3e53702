/** A function that removes the listener it was returned for. */
export type Unsubscribe = () => void;

/** A minimal typed event channel: add listeners, emit values to them in order. */
export class ListenerSet<T> {
  private readonly listeners = new Set<(value: T) => void>();

  /** Adds a listener; the returned function removes it (calling it twice is harmless). */
  add(listener: (value: T) => void): Unsubscribe {
    // Wrap so the same function can be added twice and removed independently.
    const entry = (value: T): void => listener(value);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /** Calls every listener with `value`; a listener added during emit is not called this time. */
  emit(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  /** Removes every listener, so a disposed owner keeps no consumer alive. */
  clear(): void {
    this.listeners.clear();
  }

  /** How many listeners are attached. */
  get size(): number {
    return this.listeners.size;
  }
}
