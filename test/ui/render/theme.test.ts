import { afterEach, describe, expect, it } from "vitest";
import { color, colorsEnabled } from "../../../src/ui/render/theme.js";

afterEach(() => {
  delete process.env.NO_COLOR;
});

describe("theme", () => {
  it("gives colours by role, and none at all when NO_COLOR is set", () => {
    expect(color("error")).toBe("red");
    process.env.NO_COLOR = "1";
    expect(colorsEnabled()).toBe(false);
    expect(color("error")).toBeUndefined();
    process.env.NO_COLOR = "";
    expect(colorsEnabled()).toBe(true);
  });
});
