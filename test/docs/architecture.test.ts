import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as layout from "../../scripts/layers.mjs";
import { architectureSections } from "../../src/docs/architecture-map.js";
import { applySections } from "../../src/docs/generated-docs.js";

const ROOT = path.resolve(__dirname, "../..");
const folders = (dir: string) =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

describe("docs/architecture.md", () => {
  it("holds the map of src/ as scripts/layers.mjs draws it (npm run docs writes it)", () => {
    const page = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
    expect(applySections(page, architectureSections(layout))).toBe(page);
  });

  it("maps every folder of src/, of ui/ and of orchestrator/", () => {
    expect(folders("src")).toEqual(Object.keys(layout.SRC).sort());
    const uiFolders = layout.UI.levels.flatMap((level) => Object.keys(level)).filter((f) => f !== ".");
    expect(folders("src/ui")).toEqual(uiFolders.sort());
    expect(folders("src/orchestrator")).toEqual(Object.keys(layout.ORCHESTRATOR.rooms).sort());
  });
});
