/** What the user's `--resume <id>` resolved to. Lists are newest first. */
export type SessionLookup<R extends { id: string }> =
  | { match: R }
  | { ambiguous: R[] }
  /** `closest` holds up to 3 near misses for the "no session <id>" message; it may be empty. */
  | { none: true; closest: R[] };

const MAX_CLOSEST = 3;

/**
 * Resolve `query` against `records` (given newest first): an exact id, else a unique prefix;
 * several prefix matches are ambiguous; no match suggests the closest ids.
 */
export function lookupSession<R extends { id: string }>(records: R[], query: string): SessionLookup<R> {
  const needle = query.trim();
  if (needle === "") return { none: true, closest: [] };
  const exact = records.find((record) => record.id === needle);
  if (exact) return { match: exact };
  const prefixed = records.filter((record) => record.id.startsWith(needle));
  if (prefixed.length === 1) return { match: prefixed[0] };
  if (prefixed.length > 1) return { ambiguous: prefixed };
  return { none: true, closest: closestIds(records, needle) };
}

/**
 * Up to 3 records whose id starts most like `needle`: compared with the id's prefix of the same
 * length (people type prefixes, so the rest of a long id must not count against it), ranked by
 * edit distance, then by longest common prefix, then recency. Ids too unlike are left out.
 */
function closestIds<R extends { id: string }>(records: R[], needle: string): R[] {
  // Beyond this many edits a suggestion is noise: one typo in a short prefix, a third of a long one.
  const maxDistance = Math.max(1, Math.floor(needle.length / 3));
  return records
    .map((record, recency) => ({
      record,
      recency,
      distance: editDistance(needle, record.id.slice(0, needle.length)),
      shared: commonPrefixLength(needle, record.id),
    }))
    .filter((candidate) => candidate.shared > 0 || candidate.distance <= maxDistance)
    .sort((a, b) => a.distance - b.distance || b.shared - a.shared || a.recency - b.recency)
    .slice(0, MAX_CLOSEST)
    .map((candidate) => candidate.record);
}

function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Levenshtein distance, two rows at a time. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length];
}
