#!/usr/bin/env node
// Bundles the CLI (and the demo agent, and the screen thread) into dist/bundle/ with esbuild: one entry file each, plus
// the chunks they import lazily (the TUI, the markdown/highlighting/diff libraries). Node then
// reads a few large files instead of resolving and loading hundreds of small modules, which was
// most of conch's start (see bench/startup.mjs). `bin/conch.js` runs dist/bundle/conch.js.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { checkInkDraw, inkDraw } from "./ink-draw.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "dist", "bundle");

/** Ink imports its React devtools only when DEV=true; conch never ships them. */
const noDevtools = {
  name: "no-react-devtools",
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: "react-devtools-core", namespace: "conch-stub" }));
    b.onLoad({ filter: /.*/, namespace: "conch-stub" }, () => ({
      contents: 'throw new Error("conch is bundled without the React devtools");',
      loader: "js",
    }));
  },
};

/**
 * Ink's layout engine (yoga) ships its WebAssembly as a base64 data: URL, and its web-targeted
 * loader fetches that URL whenever `fetch` exists. In Node the first fetch() loads Node's whole HTTP
 * client (undici), about 35 ms of a 2-core machine's start, to decode a string the loader can
 * decode itself. The loader is told fetch is not there.
 */
const yogaWithoutFetch = {
  name: "yoga-without-fetch",
  setup(b) {
    b.onLoad({ filter: /yoga-layout[\\/]dist[\\/]binaries[\\/].*\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const patched = source.replaceAll('"function"!=typeof fetch', "true");
      const warnings = patched === source ? [{ text: "yoga's loader changed: it may fetch its wasm again (slower start)" }] : [];
      return { contents: patched, loader: "js", warnings };
    });
  },
};

/**
 * Ink's text libraries build an Intl.Segmenter (string-width, slice-ansi, ansi-tokenize) and an
 * RGI_Emoji expression (string-width) as their modules load: ~60-90 ms of the one task that loads
 * the UI, while keys wait. They get conch's stand-ins, built on first use (src/ui/tty/lazy-intl.ts).
 */
const LAZY_INTL = {
  "string-width/index.js": [
    ["new Intl.Segmenter()", "__conchLazySegmenter()"],
    // Only string-width 8's (Ink's own); wrap-ansi's string-width 7 has none.
    ["/^\\p{RGI_Emoji}$/v", '__conchLazyRegExp("^\\\\p{RGI_Emoji}$", "v")', "optional"],
  ],
  "slice-ansi/tokenize-ansi.js": [
    ["new Intl.Segmenter(undefined, {granularity: 'grapheme'})", "__conchLazySegmenter(undefined, {granularity: 'grapheme'})"],
  ],
  "ansi-tokenize/build/tokenize.js": [
    ['new Intl.Segmenter(undefined, { granularity: "grapheme" })', '__conchLazySegmenter(undefined, { granularity: "grapheme" })'],
  ],
};
const lazyIntl = (root) => ({
  name: "lazy-intl",
  setup(b) {
    b.onLoad(
      {
        filter:
          /[\\/]node_modules[\\/](?:.*[\\/])?(string-width[\\/]index|slice-ansi[\\/]tokenize-ansi|ansi-tokenize[\\/]build[\\/]tokenize)\.js$/,
      },
      async (args) => {
        const file = args.path.replaceAll("\\", "/");
        const [, edits] = Object.entries(LAZY_INTL).find(([tail]) => file.endsWith(`/${tail}`)) ?? [];
        if (!edits) return undefined;
        let source = await readFile(args.path, "utf8");
        const warnings = [];
        for (const [from, to, optional] of edits) {
          if (!source.includes(from) && !optional)
            warnings.push({ text: `${file}: "${from}" not found: it builds its Intl objects at load again (slower start)` });
          source = source.replace(from, to);
        }
        const lazy = JSON.stringify(path.join(root, "src", "ui", "tty", "lazy-intl.ts"));
        const contents = `import { lazySegmenter as __conchLazySegmenter, lazyRegExp as __conchLazyRegExp } from ${lazy};\n${source}`;
        return { contents, loader: "js", warnings };
      },
    );
  },
});

/**
 * zod's namespace (`z.locales`, which the SDK's `import * as z` keeps whole) holds every language's
 * error messages: 366 KB of the 873 KB chunk that loads first, compiled in the one task that loads
 * the protocol while keys wait. Nothing in conch or the SDK picks a language, and English is the
 * default zod registers itself (classic/schemas.js), so the namespace keeps English only.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const warnings = source.includes('export { default as en } from "./en.js";')
        ? []
        : [{ text: "zod's locales index changed: check that English is still its own module (zod-english-only)" }];
      return { contents: 'export { default as en } from "./en.js";\n', loader: "js", resolveDir: path.dirname(args.path), warnings };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  // screen-worker: the thread that runs client terminals' emulators (src/terminals/screen-thread.ts
  // finds it beside the chunk that starts it).
  entryPoints: { conch: "src/cli/main.ts", demo: "src/demo/main.ts", "screen-worker": "src/terminals/screen-worker.ts" },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Flat: every file of the bundle sits in one directory, so paths relative to import.meta.url
  // (the demo agent beside the CLI, package.json two levels up) are the same from any chunk.
  chunkNames: "[name]-[hash]",
  // The PTY packages are native: loaded from node_modules at run time (src/terminals/pty-module.ts).
  external: ["@lydell/node-pty", "node-pty"],
  // jsonc-parser's main build is UMD, whose require() of its own files esbuild cannot follow; its ESM build bundles.
  alias: { "jsonc-parser": "./node_modules/jsonc-parser/lib/esm/main.js" },
  // React's development build is several times slower; the bundle is for users.
  define: { "process.env.NODE_ENV": '"production"' },
  // CommonJS dependencies inside an ESM bundle still call require() for Node's built-ins.
  banner: {
    js: 'import { createRequire as __conchCreateRequire } from "node:module"; const require = __conchCreateRequire(import.meta.url);',
  },
  plugins: [noDevtools, yogaWithoutFetch, zodEnglishOnly, lazyIntl(root), inkDraw(root)],
  sourcemap: "linked",
  metafile: true,
  logLevel: "warning",
});
checkInkDraw(result.metafile);
// Kept for bench/startup.mjs, which times each lazily loaded chunk.
writeFileSync(path.join(outdir, "meta.json"), JSON.stringify(result.metafile));

/**
 * V8 keeps every loaded file's source as a string, and one non-ASCII character makes the whole
 * string two bytes a character. esbuild escapes them in code, but not in comments: a typographic
 * apostrophe in highlight.js's comments doubled its 1.9 MB chunk in conch's heap (zod's likewise).
 * Comment lines get `?` instead; anything else non-ASCII is left alone and reported.
 */
for (const file of Object.keys(result.metafile.outputs)
  .filter((f) => f.endsWith(".js"))
  .map((f) => path.join(root, f))) {
  const source = readFileSync(file, "utf8");
  if (/^[\x00-\x7f]*$/.test(source)) continue;
  const ascii = source.replace(/^(\s*(?:\/\/|\/\*|\*).*)$/gm, (line) => line.replace(/[^\x00-\x7f]/g, "?"));
  writeFileSync(file, ascii);
  if (!/^[\x00-\x7f]*$/.test(ascii))
    console.warn(
      `bundle: ${path.basename(file)} keeps non-ASCII characters outside comments: V8 will hold its source at two bytes a character`,
    );
}
