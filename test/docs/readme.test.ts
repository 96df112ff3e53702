import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applySections, generatedSections } from "../../src/docs/generated-docs.js";

describe("the README", () => {
  it("holds the generated sections as the code makes them (npm run docs writes them)", () => {
    const readme = readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");
    expect(applySections(readme, generatedSections())).toBe(readme);
  });
});
