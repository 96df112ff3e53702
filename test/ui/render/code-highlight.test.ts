import { afterAll, describe, expect, it } from "vitest";
import chalk from "chalk";
import hljs from "highlight.js";
import { highlight as cliHighlight } from "cli-highlight";
import { DEFAULT_THEME } from "cli-highlight/dist/theme.js";
import { createCodeHighlighter } from "../../../src/ui/render/code-highlight.js";

// Highlighting walks highlight.js's token tree instead of cli-highlight's HTML round trip; what it
// draws must be cli-highlight's, byte for byte: the same styles, nested and reopened as chalk does,
// the same text (entities, a sublanguage's text, a grammar that gives up). Checked against
// cli-highlight itself on code a transcript holds and on a seeded soup in every grammar.

const ours = createCodeHighlighter(hljs, DEFAULT_THEME);
const theirs = (code: string, language: string) => cliHighlight(code, { language, ignoreIllegals: true });
const level = chalk.level;
afterAll(() => {
  chalk.level = level;
});

const SAMPLES: [string, string][] = [
  [
    "ts",
    'export async function load(path: string): Promise<Config> {\n  const text = await readFile(path, "utf8"); // <read>\n  return JSON.parse(text) as Config;\n}',
  ],
  ["js", 'const el = <div className="a" onClick={() => go(1 < 2 && 3 > 2)}>{`x ${y}`}</div>;\n/** @param {string} a */'],
  ["jsx", "function A() { return <App title=\"&amp; 'q'\">{list.map((x) => <Item key={x} />)}</App>; }"],
  [
    "html",
    '<!doctype html>\n<html><head><style>body { color: red; }</style>\n<script>if (a < b && c) { alert("&lt;"); }</script></head>\n<body class="x">&amp; &copy; <b>bold</b></body></html>',
  ],
  ["xml", '<?xml version="1.0"?>\n<root a="1"><![CDATA[ <raw> & ]]><!-- c --></root>'],
  ["php", '<?php echo "<b>$name</b>"; ?>\n<p>html &amp; more</p>'],
  ["markdown", "# Title\n\n```js\nconst a = 1;\n```\n\n* item `code` **bold** _em_ [link](http://x)"],
  ["css", "@media (max-width: 600px) { .a > b::after { content: '&'; color: #fff !important; } }"],
  ["json", '{ "name": "demo", "n": 1.5e3, "ok": true, "none": null, "s": "<&>" }'],
  ["sh", 'for f in src/*.ts; do echo "$f" > /dev/null 2>&1 && rg -n "TODO" "$f"; done # loop'],
  ["python", 'def f(a: int = 1, *args, **kw) -> str:\n    """doc & <stuff>"""\n    return f"{a!r}" if a > 0 else r"\\d+"'],
  ["rust", 'fn main() -> Result<(), Box<dyn Error>> { let v: Vec<&str> = vec!["a"]; println!("{:?}", v); Ok(()) }'],
  ["go", 'package main\nimport "fmt"\nfunc main() { ch := make(chan int); go func() { ch <- 1 }(); fmt.Println(<-ch) }'],
  ["sql", "SELECT a, COUNT(*) FROM t WHERE b <> 'x' AND c >= 3 GROUP BY a; -- note"],
  ["diff", "--- a/x.ts\n+++ b/x.ts\n@@ -1,2 +1,2 @@\n-const a = 1;\n+const a = 2;\n unchanged"],
  ["yaml", "name: ci\non: [push]\njobs:\n  test: { runs-on: ubuntu-latest } # &anchor *ref"],
  ["dockerfile", 'FROM node:20\nRUN npm ci && npm test\nCMD ["node", "bin/conch.js"]'],
  ["makefile", "all: build\n\t$(CC) -o $@ $^ # comment"],
  ["cpp", '#include <vector>\ntemplate <typename T> T max(T a, T b) { return a > b ? a : b; } // "q"'],
  ["ts", "line one\r\nline two\rline three\0 with NUL\ttab \u001b[31m escape é 漢字 😀"],
  ["bash", ""],
  ["ts", "   \n\n  "],
];

describe("code highlighting without cli-highlight's HTML round trip", () => {
  for (const chalkLevel of [3, 1, 0] as const) {
    it(`draws what cli-highlight draws, at chalk level ${chalkLevel}`, () => {
      chalk.level = chalkLevel;
      for (const [language, code] of SAMPLES)
        expect(ours(code, language), `${language}: ${JSON.stringify(code)}`).toBe(theirs(code, language));
      // The comparison is of styled text where chalk styles at all.
      expect(ours(SAMPLES[0][1], "ts").includes("\u001b[")).toBe(chalkLevel > 0);
    });
  }

  it("draws what cli-highlight draws in every grammar, on seeded code-like soup", () => {
    chalk.level = 2;
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed / 4294967296;
    };
    const PIECES = [
      "if",
      "else",
      "return",
      "fn",
      "def",
      "class",
      "<",
      ">",
      "&",
      '"',
      "'",
      "`",
      "{",
      "}",
      "(",
      ")",
      "[",
      "]",
      "#",
      "//",
      "/*",
      "*/",
      "--",
      ";",
      "=",
      "=>",
      "$x",
      "@a",
      "0x1F",
      "3.14",
      "\n",
      "\n  ",
      " ",
      "\t",
      "<div>",
      "</div>",
      "<?",
      "?>",
      "\\",
      "%",
      "!",
      "é",
      "//!",
      "'''",
      '"""',
      "${",
      "end",
      "begin",
      "--[[",
      "]]",
    ];
    for (const language of hljs.listLanguages()) {
      for (let n = 0; n < 3; n++) {
        const code = Array.from({ length: 10 + Math.floor(next() * 60) }, () => PIECES[Math.floor(next() * PIECES.length)]).join("");
        expect(ours(code, language), `${language}: ${JSON.stringify(code)}`).toBe(theirs(code, language));
      }
    }
  });
});
