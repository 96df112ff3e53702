import { describe, expect, it } from "vitest";
import { isInside } from "../../src/paths/is-inside.js";

describe("isInside(root, child)", () => {
  it("counts the root itself and anything below it as inside", () => {
    expect(isInside("/p", "/p")).toBe(true);
    expect(isInside("/p", "/p/")).toBe(true);
    expect(isInside("/p", "/p/a/b.txt")).toBe(true);
  });

  it("counts a name that only starts with two dots as inside", () => {
    expect(isInside("/p", "/p/..notes")).toBe(true);
  });

  it("counts the parent, a sibling with the same prefix and other trees as outside", () => {
    expect(isInside("/p", "/")).toBe(false);
    expect(isInside("/p", "/p/../q")).toBe(false);
    expect(isInside("/p", "/project")).toBe(false);
    expect(isInside("/p/a", "/p")).toBe(false);
  });
});
