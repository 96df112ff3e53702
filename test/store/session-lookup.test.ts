import { describe, expect, it } from "vitest";
import { editDistance, lookupSession } from "../../src/store/session-lookup.js";

// Newest first, as listSessions returns them.
const records = [
  { id: "7f3a9c10-aaaa" },
  { id: "7f3b0d22-bbbb" },
  { id: "c41e8e55-cccc" },
  { id: "c41e8e56-dddd" },
  { id: "0a12ffee-eeee" },
];

describe("lookupSession", () => {
  it("finds a session by its full id", () => {
    expect(lookupSession(records, "c41e8e55-cccc")).toEqual({ match: records[2] });
  });

  it("finds a session by a unique prefix", () => {
    expect(lookupSession(records, "7f3a")).toEqual({ match: records[0] });
    expect(lookupSession(records, "0")).toEqual({ match: records[4] });
  });

  it("reports every session an ambiguous prefix could mean, newest first", () => {
    expect(lookupSession(records, "c41e8e5")).toEqual({ ambiguous: [records[2], records[3]] });
    expect(lookupSession(records, "7f3")).toEqual({ ambiguous: [records[0], records[1]] });
  });

  it("suggests the ids that share the longest prefix when nothing matches", () => {
    const result = lookupSession(records, "7f3c");
    expect(result).toEqual({ none: true, closest: [records[0], records[1]] });
  });

  it("suggests an id one typo away even when the first character is wrong", () => {
    const result = lookupSession(records, "d41e8e55");
    expect(result).toEqual({ none: true, closest: [records[2], records[3]] });
  });

  it("suggests at most three ids", () => {
    const many = ["ab1", "ab2", "ab3", "ab4"].map((id) => ({ id }));
    const result = lookupSession(many, "abx");
    expect("none" in result && result.closest).toHaveLength(3);
  });

  it("suggests nothing for a query unlike every id", () => {
    expect(lookupSession(records, "zzzzzzzz")).toEqual({ none: true, closest: [] });
  });

  it("treats an empty query as matching nothing", () => {
    expect(lookupSession(records, "  ")).toEqual({ none: true, closest: [] });
  });
});

describe("editDistance", () => {
  it("counts insertions, deletions and substitutions", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("same", "same")).toBe(0);
  });
});
