// The bundle's Ink draws a frame with conch's versions of a few of its modules
// (src/ui/tty/ink-draw/): the same screen for the same tree, at a fraction of the cost per frame
// while an agent streams. Ink's files import them by relative path, which esbuild resolves here
// to conch's; imports from anywhere else are left alone. ink-testing-library's tests run Ink as
// published; the e2e tests run the bundle. Ink's own ink.js is edited in two places (INK_MAIN_EDITS).
import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * Ink's import, as its files write it → conch's module and the export that takes its place; with
 * `wraps`, that export is a function of Ink's own module (its result kept for recent texts).
 */
const REPLACED = {
  "./output.js": ["output.ts", "default"],
  "./log-update.js": ["log-update.ts", "default"],
  "./measure-text.js": ["text-measure.ts", "measureText"],
  "./wrap-text.js": ["text-measure.ts", "wrapText"],
  "widest-line": ["text-measure.ts", "widestLine"],
  "./sanitize-ansi.js": ["text-measure.ts", "sanitizeKept", "wraps"],
};
const INK_BUILD = /[\\/]node_modules[\\/]ink[\\/]build[\\/]/;
const INK_MAIN = /[\\/]node_modules[\\/]ink[\\/]build[\\/]ink\.js$/;

/**
 * Ink's `onRender` as conch draws it: each frame cut to fit the screen (src/ui/tty/ink-draw/
 * screen-fit.ts), and never the fullscreen path, which clears the whole terminal, scrollback and
 * conch's transcript in it included, when the last frame reached the terminal's height (a frame
 * cut to fit still did, after the terminal lost rows: the frame is then redrawn as any other).
 * Each piece of Ink's code must be found exactly once, or the build fails.
 */
const INK_MAIN_EDITS = [
  [
    "const { output, outputHeight, staticOutput } = render(this.rootNode, this.isScreenReaderEnabled);",
    "const { output, outputHeight, staticOutput } = conchFitScreen(render(this.rootNode, this.isScreenReaderEnabled), this.options.stdout.rows);",
  ],
  ["if (this.lastOutputHeight >= this.options.stdout.rows) {", "if (false) {"],
];
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** The esbuild plugin that puts conch's modules in place of Ink's. */
export function inkDraw(root) {
  const dir = path.join(root, "src", "ui", "tty", "ink-draw");
  return {
    name: "ink-draw",
    setup(b) {
      const filter = new RegExp(`^(${Object.keys(REPLACED).map(escape).join("|")})$`);
      b.onResolve({ filter }, (args) =>
        INK_BUILD.test(args.importer) ? { path: args.path, namespace: "ink-draw", pluginData: path.dirname(args.importer) } : undefined,
      );
      b.onLoad({ filter: INK_MAIN }, async (args) => {
        let contents = await readFile(args.path, "utf8");
        for (const [inks, ours] of INK_MAIN_EDITS) {
          if (contents.split(inks).length !== 2) throw new Error(`ink-draw: ink/build/ink.js changed, not found once: ${inks}`);
          contents = contents.replace(inks, ours);
        }
        const fit = JSON.stringify(path.join(dir, "screen-fit.ts"));
        return {
          contents: `import { fitScreen as conchFitScreen } from ${fit};\n${contents}`,
          loader: "js",
          resolveDir: path.dirname(args.path),
        };
      });
      b.onLoad({ filter: /.*/, namespace: "ink-draw" }, (args) => {
        const [file, name, wraps] = REPLACED[args.path];
        const ours = JSON.stringify(path.join(dir, file));
        const contents = wraps
          ? `import inks from ${JSON.stringify(path.join(args.pluginData, args.path))};\nimport { ${name} } from ${ours};\nexport default ${name}(inks);`
          : `export { ${name} as default } from ${ours};`;
        return { contents, loader: "js", resolveDir: dir };
      });
    },
  };
}

/**
 * Throws when the bundle holds one of the Ink files replaced, or none of conch's: Ink changed how
 * its files import each other, and frames would be drawn by Ink's slow path again, unnoticed.
 */
export function checkInkDraw(metafile) {
  const inputs = Object.keys(metafile.inputs).map((f) => f.replaceAll("\\", "/"));
  const kept = inputs.filter((f) => /node_modules\/(ink\/build\/(output|log-update|measure-text|wrap-text)\.js|widest-line\/)/.test(f));
  if (!inputs.some((f) => f.startsWith("ink-draw:./sanitize-ansi.js"))) kept.push("ink/build/sanitize-ansi.js unwrapped");
  const ours = new Set([...Object.values(REPLACED).map(([file]) => file), "screen-fit.ts"]);
  const missing = [...ours].filter((file) => !inputs.some((f) => f.endsWith(`src/ui/tty/ink-draw/${file}`)));
  if (kept.length || missing.length)
    throw new Error(
      `bundle: Ink's frame drawing is not conch's (scripts/ink-draw.mjs): ${[...kept.map((f) => `${f} still bundled`), ...missing.map((f) => `${f} not used`)].join("; ")}`,
    );
}
