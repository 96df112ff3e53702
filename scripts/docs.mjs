#!/usr/bin/env node
// `npm run docs`: writes the parts of README.md (the key table) and docs/architecture.md (the map of
// src/, from scripts/layers.mjs) that are generated from the code, between their
// `<!-- generated:NAME -->` markers. A test fails when either page is out of date.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as layout from "./layers.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { generatedSections, applySections } = await import(path.join(root, "dist", "docs", "generated-docs.js"));
const { architectureSections } = await import(path.join(root, "dist", "docs", "architecture-map.js"));

for (const [name, sections] of [
  ["README.md", generatedSections()],
  ["docs/architecture.md", architectureSections(layout)],
]) {
  const file = path.join(root, name);
  const before = readFileSync(file, "utf8");
  const after = applySections(before, sections);
  if (after !== before) writeFileSync(file, after);
  process.stdout.write(`${name} ${after !== before ? "updated" : "is up to date"}\n`);
}
