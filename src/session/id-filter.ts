/** Bits in the filter: 4 MiB, taken when the first id is added. */
const BITS = 1 << 25;
/** Bits set per id. */
const PROBES = 8;

/**
 * A set of ids that may answer "maybe" for an id never added, never "no" for one added (a Bloom
 * filter): its size is fixed however many ids it holds. With 400,000 ids, about one id in 200
 * million never added is answered "maybe" (with 2 million, one in 5,000); a caller checks a "maybe"
 * where the ids are kept.
 */
export class IdFilter {
  private bits?: Uint8Array;

  add(id: string): void {
    const bits = (this.bits ??= new Uint8Array(BITS / 8));
    const [first, step] = hashes(id);
    for (let i = 0, h = first; i < PROBES; i++, h = (h + step) >>> 0) bits[(h & (BITS - 1)) >>> 3] |= 1 << (h & 7);
  }

  /** False when `id` was never added; true when it was, or (rarely) when it was not. */
  mayHave(id: string): boolean {
    const bits = this.bits;
    if (!bits) return false;
    const [first, step] = hashes(id);
    for (let i = 0, h = first; i < PROBES; i++, h = (h + step) >>> 0)
      if ((bits[(h & (BITS - 1)) >>> 3] & (1 << (h & 7))) === 0) return false;
    return true;
  }
}

/** Two 32-bit FNV-1a hashes of `id` (different offsets), the second odd: the probes are `h + i * step`. */
function hashes(id: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return [a >>> 0, (b | 1) >>> 0];
}
