/** A seeded random source: a function giving numbers in [0, 1), with `int` and `pick` beside it. */
export type SeededRandom = (() => number) & {
  int: (lo: number, hi: number) => number;
  pick: <T>(arr: readonly T[]) => T;
};

/** A small seeded PRNG (mulberry32), so a failing case names a seed that can be run again. */
export function rng(seed: number): SeededRandom {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Object.assign(next, {
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(arr: readonly T[]): T => arr[Math.floor(next() * arr.length)],
  });
}
