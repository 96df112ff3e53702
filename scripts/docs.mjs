#!/usr/bin/env node
// `npm run docs`: writes the parts of README.md that are generated from the code (the key table),
// between their `<!-- generated:NAME -->` markers. A test fails when the README is out of date.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { generatedSections, applySections } = await import(path.join(root, "dist", "docs", "generated-docs.js"));
const file = path.join(root, "README.md");
const before = readFileSync(file, "utf8");
const after = applySections(before, generatedSections());
if (after !== before) {
  writeFileSync(file, after);
  process.stdout.write("README.md updated\n");
} else {
  process.stdout.write("README.md is up to date\n");
}
