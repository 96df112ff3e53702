// @ts-check
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import { LAYER_RULES, ORCHESTRATOR, UI } from "./scripts/layers.mjs";

const RESTRICTED = "@typescript-eslint/no-restricted-imports";

/** What ui/ never imports (the agent's connection, the store), and what it takes types from only: a session is what session-port.ts says of it. */
const UI_LAYER = [
  ...LAYER_RULES.ui.never.map((folder) => ({
    regex: `^(\\.\\./)+${folder}/`,
    message: `ui/ never imports ${folder}/: ${LAYER_RULES.ui.why} (scripts/layers.mjs).`,
  })),
  ...LAYER_RULES.ui.typesOnly.map((folder) => ({
    regex: `^(\\.\\./)+${folder}/`,
    allowTypeImports: true,
    message: `ui/ imports only types from ${folder}/: ${LAYER_RULES.ui.why} (scripts/layers.mjs).`,
  })),
];

/**
 * One rule per folder of src/ui (scripts/layers.mjs): a folder imports only the folders of the
 * levels below its own, so ui/ stays a stack. Every import inside ui/ is `../folder/file.js`
 * (`./folder/file.js` from the root), which is what the patterns match.
 */
function uiStack() {
  const levels = UI.levels.map((level) => Object.keys(level));
  return levels.flatMap((level, i) =>
    level.map((folder) => {
      const may = levels
        .slice(i + 1)
        .flat()
        .map((f) => (f === "." ? "session-port.ts" : `${f}/`));
      const message = `ui/ is a stack (scripts/layers.mjs): ${folder === "." ? "ui/'s root" : `${folder}/`} may import ${may.join(", ") || "no folder of ui/"}.`;
      if (folder === ".")
        return {
          files: [`${UI.dir}/*.{ts,tsx}`],
          rules: { [RESTRICTED]: ["error", { patterns: [{ regex: "^\\./[^/]+/", message }, ...UI_LAYER] }] },
        };
      const notBelow = levels
        .slice(0, i + 1)
        .flat()
        .filter((f) => f !== folder && f !== ".");
      const stack = notBelow.length ? [{ regex: `^\\.\\./(${notBelow.join("|")})/`, message }] : [];
      return { files: [`${UI.dir}/${folder}/**/*.{ts,tsx}`], rules: { [RESTRICTED]: ["error", { patterns: [...stack, ...UI_LAYER] }] } };
    }),
  );
}

/** session/ is pure: nothing of conch's but the leaves it may use and the types it may take (scripts/layers.mjs). */
function pureSession(dir, up) {
  const { only, typesOnly, why } = LAYER_RULES.session;
  const message = `session/ imports nothing of conch's but ${only.map((f) => `${f}/`).join(", ")} and types from ${typesOnly.map((f) => `${f}/`).join(", ")}: ${why}.`;
  const anyOf = (list) => `(${list.join("|")})/`;
  return {
    files: [`${dir}/*.ts`],
    rules: {
      [RESTRICTED]: [
        "error",
        {
          patterns: [
            { regex: `^${up}(?!${anyOf([...only, ...typesOnly])})`, message },
            { regex: `^${up}${anyOf(typesOnly)}`, allowTypeImports: true, message },
          ],
        },
      ],
    },
  };
}

/**
 * The orchestrator's rooms (scripts/layers.mjs): a room imports of the core only its ports
 * (ports.ts) and no other room but the ones it is said to use; the core reaches into a room only
 * in the files that build it. Imports from the core are `./room/file.js`, from a room `../file.js`.
 */
function orchestratorRooms() {
  const { dir, rooms, corePorts, builders, roomImports } = ORCHESTRATOR;
  const names = Object.keys(rooms);
  const anyOf = (list) => `(${list.join("|")})`;
  const rule = (files, patterns) => ({ files: [files], rules: { [RESTRICTED]: ["error", { patterns: patterns.filter(Boolean) }] } });
  const builtBy = Object.entries(builders)
    .map(([file, may]) => `${file} (${may.map((r) => `${r}/`).join(", ")})`)
    .join(", ");
  const core = (file, may = []) => {
    const barred = names.filter((room) => !may.includes(room));
    const message = `orchestrator/'s core reaches into a room only where it builds it: ${builtBy} (scripts/layers.mjs).`;
    return rule(`${dir}/${file}`, [barred.length && { regex: `^\\./${anyOf(barred)}/`, message }]);
  };
  const room = (name) => {
    const uses = roomImports[name] ?? [];
    const barred = names.filter((other) => other !== name && !uses.includes(other));
    const ports = corePorts.map((file) => file.replace(/\.ts$/, "\\.js"));
    const but = uses.length ? ` but ${uses.map((r) => `${r}/`).join(", ")}` : "";
    return rule(`${dir}/${name}/**/*.ts`, [
      {
        regex: `^\\.\\./(?!${anyOf(ports)}$)[^/]+$`,
        message: `a room imports of orchestrator/'s core only ${corePorts.join(", ")} (scripts/layers.mjs).`,
      },
      barred.length && { regex: `^\\.\\./${anyOf(barred)}/`, message: `${name}/ imports no other room${but} (scripts/layers.mjs).` },
    ]);
  };
  return [core("*.ts"), ...Object.entries(builders).map(([file, may]) => core(file, may)), ...names.map(room)];
}

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", ".tmp/", "test/fixtures/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Protocol data is typed from the SDK; an `any` is a hole in that.
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // Terminal text is made of control characters: matching them is the point.
      "no-control-regex": "off",
      // A variable read by a closure before its one assignment (a handle the cleanup needs) stays `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ["src/ui/**/*.{ts,tsx}", "test/ui/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The real-agent suites read raw wire JSON from agents conch does not control, after asserting its shape.
    files: ["test/agents/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  ...uiStack(),
  pureSession("src/session", "\\.\\./"),
  ...orchestratorRooms(),
  pureSession("src/session/profiles", "\\.\\./\\.\\./"),
);
