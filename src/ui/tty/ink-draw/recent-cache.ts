/**
 * A string-keyed cache that keeps what was used lately and forgets the rest: two generations of at
 * most `limit` entries; when the newer one is full it becomes the older one and the oldest is
 * dropped. A hit in the older generation moves the entry to the newer one, so what every frame
 * uses stays while what a stream left behind goes, and memory stays bounded however long it runs.
 */
export class RecentCache<V> {
  private young = new Map<string, V>();
  private old = new Map<string, V>();

  constructor(private readonly limit: number) {}

  /** The value for `key`, made by `make` when it is not kept. */
  get(key: string, make: (key: string) => V): V {
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const older = this.old.get(key);
    const value = older !== undefined ? older : make(key);
    if (this.young.size >= this.limit) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
    return value;
  }

  /** Entries kept, both generations (for tests). */
  get size(): number {
    return this.young.size + this.old.size;
  }
}
