import type * as Layers from "../../scripts/layers.mjs";

/** What the map is drawn from: scripts/layers.mjs, as eslint.config.js reads it. */
export type Layout = Pick<typeof Layers, "SRC" | "LAYER_RULES" | "UI" | "ORCHESTRATOR">;

const dir = (f: string) => `\`${f}/\``;
const list = (folders: readonly string[]) => folders.map(dir).join(", ");
const table = (head: string[], rows: string[][]) =>
  [`| ${head.join(" | ")} |`, `| ${head.map(() => "---").join(" | ")} |`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");

/** What the lint holds of each top-level folder, in words. */
function ruleOf(folder: string, layout: Layout): string {
  const { ui, session } = layout.LAYER_RULES;
  if (folder === "ui") return `never imports ${list(ui.never)}; types only from ${list(ui.typesOnly)}; its folders are a stack (below)`;
  if (folder === "session") return `imports of conch's only ${list(session.only)}, and types from ${list(session.typesOnly)}`;
  if (folder === "orchestrator") return "a core and rooms (below)";
  return "—";
}

/** src/'s folders: what each holds and what the lint holds of it. */
function foldersTable(layout: Layout): string {
  return table(
    ["folder", "what is there", "the lint holds"],
    Object.entries(layout.SRC).map(([folder, what]) => [dir(folder), what, ruleOf(folder, layout)]),
  );
}

/** ui/'s stack: each folder's level, the folders it may import (those of the levels below), and what it holds. */
function uiStackTable(layout: Layout): string {
  const levels = layout.UI.levels.map((level) => Object.keys(level));
  const rows = layout.UI.levels.flatMap((level, i) =>
    Object.entries(level).map(([folder, what]) => {
      const below = levels.slice(i + 1).flat();
      const may = below.map((f) => (f === "." ? "`session-port.ts`" : dir(f))).join(", ") || "no folder of `ui/`";
      return [String(i + 1), folder === "." ? "`.`" : dir(folder), may, what];
    }),
  );
  return table(["level", "folder", "may import", "what is there"], rows);
}

/** orchestrator/'s core and rooms: what each may import of the other, and what it holds. */
function roomsTable(layout: Layout): string {
  const { core, rooms, corePorts, builders, roomImports } = layout.ORCHESTRATOR;
  const builds = Object.entries(builders)
    .map(([file, may]) => `\`${file}\` → ${list(may)}`)
    .join("; ");
  const rows = [
    ["core (its root)", `a room only where it builds it: ${builds}`, core],
    ...Object.entries(rooms).map(([room, what]) => {
      const others = roomImports[room] ?? [];
      return [dir(room), `of the core ${corePorts.map((f) => `\`${f}\``).join(", ")}${others.length ? `; ${list(others)}` : ""}`, what];
    }),
  ];
  return table(["room", "may import", "what is there"], rows);
}

/** docs/architecture.md's generated sections, by marker name: the map, drawn from the layout the lint holds. */
export function architectureSections(layout: Layout): Record<string, string> {
  return { folders: foldersTable(layout), "ui-stack": uiStackTable(layout), "orchestrator-rooms": roomsTable(layout) };
}
