#!/usr/bin/env node
// The imports between the folders of src/ui and the rooms of src/orchestrator, checked against
// scripts/layers.mjs: files and lines per folder, folder-to-folder arrows, and every import that
// goes against the layout (upward or sideways in ui/'s stack, into a room or past the core's ports
// in orchestrator/). The lint rule holds the layout; this prints the figures and finds what a
// dynamic import() slips past the rule.
//
//   node scripts/import-graph.mjs [--root DIR] [--layers FILE] [--json]
//
// --root measures another checkout (its src/); --layers takes the layout from another module of
// the same shape as scripts/layers.mjs (to measure an old tree against the stack it had); --json
// prints the graph for a generator. Exits 1 when an import goes against the layout.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const ts = createRequire(import.meta.url)("typescript");

/** The folder (ui) or room (orchestrator) of a file path relative to the area's directory; "." for files directly in it. */
function roomOf(relPath) {
  const parts = relPath.split(path.sep);
  return parts.length > 1 ? parts[0] : ".";
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [p] : [];
  });
}

/** True when an import brings in types only, so it costs nothing at run time. */
function isTypeOnly(node) {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

/** Every relative import of a file: static, re-export, dynamic `import()` and `import("…")` types. */
function importsOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      found.push({ spec: node.moduleSpecifier.text, typeOnly: isTypeOnly(node), dynamic: false });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) found.push({ spec: arg.text, typeOnly: false, dynamic: true });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ spec: node.argument.literal.text, typeOnly: true, dynamic: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((i) => i.spec.startsWith("."));
}

/** The ui stack's level of each folder (0 = top). */
function uiLevels(ui) {
  return new Map(ui.levels.flatMap((level, i) => Object.keys(level).map((folder) => [folder, i])));
}

/** Why an import inside ui/ goes against the stack, or undefined when it does not. */
function uiVerdict(levels, imp) {
  if (imp.fromRoom === imp.toRoom) return undefined;
  const from = levels.get(imp.fromRoom);
  const to = levels.get(imp.toRoom);
  if (from === undefined || to === undefined) return `${from === undefined ? imp.fromRoom : imp.toRoom}/ is not in the stack`;
  if (to < from) return "upward";
  if (to === from) return "sideways";
  return undefined;
}

/** Why an import inside orchestrator/ goes against its rooms, or undefined when it does not. */
function orchestratorVerdict(layout, imp) {
  if (imp.fromRoom === imp.toRoom) return undefined;
  const fromFile = path.basename(imp.from);
  if (imp.fromRoom === ".") {
    return layout.builders?.[fromFile]?.includes(imp.toRoom) ? undefined : `the core reaches into ${imp.toRoom}/`;
  }
  if (imp.toRoom === ".") {
    return layout.corePorts?.includes(path.basename(imp.to)) ? undefined : `${imp.fromRoom}/ imports the core beyond its ports`;
  }
  return layout.roomImports?.[imp.fromRoom]?.includes(imp.toRoom) ? undefined : `${imp.fromRoom}/ imports ${imp.toRoom}/`;
}

/** The graph of one area: its folders with files and lines, its imports, each with the verdict of the layout. */
function areaGraph(srcDir, areaDir, verdict) {
  const dir = path.join(srcDir, areaDir);
  const folders = new Map();
  const imports = [];
  for (const file of sourceFiles(dir)) {
    const rel = path.relative(dir, file);
    const room = roomOf(rel);
    const folder = folders.get(room) ?? { files: 0, lines: 0 };
    folder.files += 1;
    folder.lines += readFileSync(file, "utf8").split("\n").length - 1;
    folders.set(room, folder);
    for (const imp of importsOf(file)) {
      const target = path.relative(dir, path.resolve(path.dirname(file), imp.spec)).replace(/\.jsx?$/, ".ts");
      if (target.startsWith("..")) continue; // another layer of src/: the layer rules in eslint.config.js
      const entry = { from: rel, to: target, fromRoom: room, toRoom: roomOf(target), typeOnly: imp.typeOnly, dynamic: imp.dynamic };
      imports.push({ ...entry, against: verdict(entry) });
    }
  }
  return { dir: areaDir, folders, imports };
}

/** Both areas of a checkout's src/, measured against a layout module's `UI` and `ORCHESTRATOR`. */
export function importGraph(srcDir, layout) {
  const levels = uiLevels(layout.UI);
  return {
    ui: { ...areaGraph(srcDir, "ui", (imp) => uiVerdict(levels, imp)), levels },
    orchestrator: areaGraph(srcDir, "orchestrator", (imp) =>
      layout.ORCHESTRATOR ? orchestratorVerdict(layout.ORCHESTRATOR, imp) : undefined,
    ),
  };
}

/** Folder-to-folder arrows: how many imports each carries, how many of them only types, and the verdict of the first one against the layout. */
function arrows(area) {
  const byPair = new Map();
  for (const imp of area.imports) {
    if (imp.fromRoom === imp.toRoom) continue;
    const key = `${imp.fromRoom} → ${imp.toRoom}`;
    const arrow = byPair.get(key) ?? { from: imp.fromRoom, to: imp.toRoom, imports: 0, typeOnly: 0, against: undefined };
    arrow.imports += 1;
    if (imp.typeOnly) arrow.typeOnly += 1;
    arrow.against ??= imp.against;
    byPair.set(key, arrow);
  }
  return [...byPair.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

function report(name, area, levelOf) {
  const lines = [];
  const folderArrows = arrows(area);
  const wrong = area.imports.filter((i) => i.against);
  const wrongArrows = folderArrows.filter((a) => a.against);
  const files = [...area.folders.values()].reduce((n, f) => n + f.files, 0);
  const sum = [...area.folders.values()].reduce((n, f) => n + f.lines, 0);
  lines.push(`src/${name}: ${files} files, ${sum} lines, ${area.folders.size} folders`);
  lines.push(`  folder arrows against the layout: ${wrongArrows.length}; imports against it: ${wrong.length}`);
  const names = [...area.folders.keys()].sort((a, b) => (levelOf(a) ?? 99) - (levelOf(b) ?? 99) || a.localeCompare(b));
  lines.push("", "  folder          files  lines" + (name === "ui" ? "  level" : ""));
  for (const folder of names) {
    const f = area.folders.get(folder);
    const level = name === "ui" ? `  ${levelOf(folder) === undefined ? "-" : levelOf(folder) + 1}` : "";
    lines.push(
      `  ${(folder + (folder === "." ? "" : "/")).padEnd(14)} ${String(f.files).padStart(5)}  ${String(f.lines).padStart(5)}${level}`,
    );
  }
  lines.push("", "  arrows (imports, of which type-only)");
  for (const a of folderArrows) {
    const types = a.typeOnly ? ` (${a.typeOnly} type)` : "";
    lines.push(
      `  ${a.from.padEnd(12)} → ${a.to.padEnd(12)} ${String(a.imports).padStart(3)}${types}${a.against ? `   ✗ ${a.against}` : ""}`,
    );
  }
  if (wrong.length) {
    lines.push("", "  imports against the layout");
    for (const i of wrong)
      lines.push(`  ${name}/${i.from} → ${name}/${i.to}${i.typeOnly ? " (type)" : ""}${i.dynamic ? " (dynamic)" : ""}: ${i.against}`);
  }
  return lines.join("\n");
}

async function main(argv) {
  // Piped into `head`: stop quietly when the reader has what it wanted.
  process.stdout.on("error", (err) => {
    if (err.code !== "EPIPE") throw err;
    process.exit();
  });
  const option = (flag) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const root = path.resolve(option("--root") ?? path.join(here, ".."));
  const layout = await import(pathToFileURL(path.resolve(option("--layers") ?? path.join(here, "layers.mjs"))).href);
  const graph = importGraph(path.join(root, "src"), layout);
  if (argv.includes("--json")) {
    const plain = (area) => ({
      folders: Object.fromEntries(area.folders),
      arrows: arrows(area),
      against: area.imports.filter((i) => i.against),
    });
    process.stdout.write(JSON.stringify({ ui: plain(graph.ui), orchestrator: plain(graph.orchestrator) }, null, 2) + "\n");
  } else {
    process.stdout.write(report("ui", graph.ui, (f) => graph.ui.levels.get(f)) + "\n\n");
    process.stdout.write(report("orchestrator", graph.orchestrator, (f) => (f === "." ? 0 : 1)) + "\n");
  }
  const against = graph.ui.imports.some((i) => i.against) || graph.orchestrator.imports.some((i) => i.against);
  process.exitCode = against ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main(process.argv.slice(2));
