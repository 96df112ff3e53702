/**
 * The one poll of the tests, for what sends no event to wait on (a file, a process, a screen
 * parsed on another thread): asks `get` again every `every` ms until it answers, and resolves
 * with the answer. `ms` is only an upper bound for a broken build: a passing test never reaches
 * it, so none depends on the machine's speed.
 */
export async function pollFor<T>(
  get: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  { ms = 20_000, every = 10 }: { ms?: number; every?: number } = {},
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await get();
    if (answer !== undefined && answer !== false) return answer;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

/** Polls until `check` holds (see `pollFor`). */
export async function waitUntil(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  await pollFor(async () => (await check()) || undefined, what, { ms });
}

/** Polls until `check` (an `expect`) passes; after `ms` it fails with what `check` last threw (see `pollFor`). */
export async function untilPasses(check: () => void, ms = 10_000): Promise<void> {
  let last: unknown;
  const passes = () => {
    try {
      check();
      return true;
    } catch (err) {
      last = err;
      return false;
    }
  };
  await pollFor(passes, "a check passes", { ms }).catch(() => {
    throw last;
  });
}
