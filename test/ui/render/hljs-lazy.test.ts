import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_THEME } from "cli-highlight/dist/theme.js";
import chalk from "chalk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodeHighlighter, type HLJSApi } from "../../../src/ui/render/code-highlight.js";
import { lazyGrammars } from "../../../src/ui/render/hljs-lazy.js";

// conch registers highlight.js's grammars when first used, not all at import. What it draws must be
// what it draws with every grammar registered: for each grammar and alias, asked first in a fresh
// highlight.js, on code that makes grammars embed others (HTML's scripts and styles, an HTTP body
// auto-detected among all grammars, templates, a REPL, SQL functions in other languages).

const require = createRequire(import.meta.url);
const full = require("highlight.js") as HLJSApi;
const fullHighlight = createCodeHighlighter(full, DEFAULT_THEME);
const coreFile = require.resolve("highlight.js/lib/core");
const indexFile = require.resolve("highlight.js");

/** A highlight.js of its own (core and index evaluated again; the grammar files are only functions). */
async function freshLazy() {
  delete require.cache[coreFile];
  delete require.cache[indexFile];
  const hljs = require("highlight.js/lib/core") as HLJSApi;
  const grammarOf = await lazyGrammars(hljs, async () => require("highlight.js"));
  grammarOf("plaintext");
  const highlight = createCodeHighlighter(hljs, DEFAULT_THEME);
  return { hljs, grammarOf, highlight: (code: string, language: string) => highlight(code, grammarOf(language) ?? language) };
}

const CODE = [
  '<!doctype html>\n<html><head><style>body { color: red; }</style>\n<script>if (a < b && c) { alert("&lt;"); }</script></head>\n<body class="x">{{#each items}}<b>{{name}}</b>{{/each}} &amp;</body></html>',
  '<?php echo "<b>$name</b>"; ?>\n<p>html &amp; <%= @user.name %> more</p>\n<% if x %><div>y</div><% end %>',
  "# Title\n\n```js\nconst a = 1;\n```\n\n<div>html</div>\n\n* item `code` **bold** _em_ [link](http://x)",
  'POST /api HTTP/1.1\nHost: x\nContent-Type: application/json\n\n{"a": [1, 2, {"b": null}], "c": "d"}',
  "HTTP/1.1 200 OK\nContent-Type: text/html\n\n<html><body><p>hi</p><script>let x = 1;</script></body></html>",
  "CREATE FUNCTION f() RETURNS int AS $$\nimport sys\nreturn 1\n$$ LANGUAGE plpythonu;\nDO $x$ BEGIN PERFORM 1; END $x$ LANGUAGE plpgsql;",
  '#include <vector>\ntemplate <typename T> T max(T a, T b) { return a > b ? a : b; } // "q"\nint main() { printf("%d\\n", 1); }',
  "$ ls -la /tmp\ntotal 0\n> echo hi\n>>> x = [1, 2]\n... print(x)\nuser=> (+ 1 2)\njulia> 1 + 1",
  'export async function load(path: string): Promise<Config> {\n  const el = <div className="a">{`x ${y}`}</div>;\n  return css`a { color: red; }`;\n}',
  "name: ci\non: [push]\njobs:\n  test: { runs-on: ubuntu-latest } # &anchor *ref\n  x: !ruby/object:Foo {}\nTAP version 13\nok 1 - works\n  ---\n  a: 1\n  ...",
  '<?xml version="1.0"?>\n<root a="1"><![CDATA[ <raw> & ]]><!-- c --></root>\nfor $x in doc("a.xml")//b return <c>{$x}</c>',
  "{% if user %}<p>{{ user.name|e }}</p>{% endif %}\n% for x in y:\n<%perl> my $a = 1; </%perl>\n@(Model.Name) <li>@item</li>",
];

describe("highlight.js grammars registered when first used", () => {
  // Styles are compared too: chalk draws them only at a colour level above 0.
  const level = chalk.level;
  beforeAll(() => {
    chalk.level = 3;
  });
  afterAll(() => {
    chalk.level = level;
  });

  it("its alias table is highlight.js's (regenerate it with scripts/hljs-aliases.mjs)", () => {
    const before = readFileSync("src/ui/render/hljs-aliases.ts", "utf8");
    const names = full.listLanguages();
    for (const alias of new Set(names.flatMap((n) => full.getLanguage(n)?.aliases ?? []))) {
      const key = alias.toLowerCase();
      if (names.includes(key)) continue;
      const entry = `${key}=${names.find((n) => full.getLanguage(n) === full.getLanguage(key))}`;
      expect(before, `${alias} (run scripts/hljs-aliases.mjs)`).toMatch(
        new RegExp(`[" ]${entry.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[" ]`),
      );
    }
    // And nothing more: the script gives this very file.
    const fresh = path.join(mkdtempSync(path.join(tmpdir(), "hljs-aliases-")), "hljs-aliases.ts");
    execFileSync(process.execPath, ["scripts/hljs-aliases.mjs", fresh]);
    expect(readFileSync(fresh, "utf8")).toBe(before);
  });

  it("draws what every grammar registered draws, for each grammar or alias asked first", async () => {
    const languages = [...full.listLanguages(), ...full.listLanguages().flatMap((n) => full.getLanguage(n)?.aliases ?? [])];
    expect(languages.length).toBeGreaterThan(300);
    for (const language of [...languages, "TS", "Html", "nope", ""]) {
      const lazy = await freshLazy();
      expect(lazy.grammarOf(language) !== undefined, language).toBe(full.getLanguage(language) !== undefined);
      if (!full.getLanguage(language)) continue;
      for (const code of CODE)
        expect(lazy.highlight(code, language), `${language}: ${code.slice(0, 30)}`).toBe(fullHighlight(code, language));
    }
  }, 120_000);

  it("draws the same whatever the order grammars are first asked in", async () => {
    const lazy = await freshLazy();
    const languages = full.listLanguages().reverse();
    for (const language of languages)
      for (const code of CODE)
        expect(lazy.highlight(code, language), `${language}: ${code.slice(0, 30)}`).toBe(fullHighlight(code, language));
    expect(lazy.hljs.listLanguages()).toHaveLength(full.listLanguages().length);
    // A definition that looks for another grammar (c-like, htmlbars) was told what the index tells it.
    const shape = (hljs: HLJSApi, name: string) => {
      const { aliases, disableAutodetect } = hljs.getLanguage(name) ?? {};
      return { aliases, disableAutodetect };
    };
    for (const language of languages) expect(shape(lazy.hljs, language), language).toEqual(shape(full, language));
  }, 60_000);

  it("loads only the grammars a transcript asks for", async () => {
    const lazy = await freshLazy();
    lazy.highlight("let a = 1;", "ts");
    lazy.highlight("ls -la", "sh");
    expect(lazy.hljs.listLanguages().sort()).toEqual(["bash", "css", "handlebars", "javascript", "plaintext", "typescript", "xml"]);
  });
});
