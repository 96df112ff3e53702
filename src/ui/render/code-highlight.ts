import type { Theme } from "cli-highlight";

/** A node of highlight.js's token tree (its emitter's `rootNode`): text, or a scope around more. */
type TokenNode = string | { kind?: string; sublanguage?: boolean; children: TokenNode[] };

/** highlight.js's API (its types declare the module as `export =`). */
export type HLJSApi = typeof import("highlight.js");

type Styler = (text: string) => string;

/**
 * highlight.js renders every result to HTML (`result.value`), which conch never reads: it walks the
 * token tree. Its own emitter without that render (the same tree) makes highlighting cheaper.
 * Options are global to highlight.js, and changing them copies them (~10 µs a call, twice per block
 * when swapped around each call), so the emitter is set once and skips the render only while conch's
 * own call runs: any other caller gets its HTML.
 */
function treeOnlyEmitter(hljs: HLJSApi): { treeOnly<T>(run: () => T): T } {
  type Emitter = new (options: unknown) => { toHTML(): string };
  const Tree = hljs.highlight("", { language: "plaintext" }).emitter.constructor as Emitter;
  let skip = false;
  class TreeOnlyEmitter extends Tree {
    override toHTML(): string {
      return skip ? "" : super.toHTML();
    }
  }
  hljs.configure({ __emitter: TreeOnlyEmitter } as unknown as Options);
  return {
    treeOnly(run) {
      skip = true;
      try {
        return run();
      } finally {
        skip = false;
      }
    },
  };
}
type Options = Parameters<HLJSApi["configure"]>[0];

const plain: Styler = (text) => text;
/** cli-highlight's user theme when none is given: styles are looked up on it first, prototype and all. */
const NO_THEME: Record<string, Styler | undefined> = {};
/** The HTML parser cli-highlight reads highlight.js's output with drops NUL and turns CR and CRLF into LF. */
const asParsed = (text: string) => text.replace(/\r\n?/g, "\n").replace(/\0/g, "");

/**
 * Syntax highlighting as ANSI text, the same bytes `cli-highlight`'s `highlight(code, { language,
 * ignoreIllegals: true })` gives, without its round trip through HTML: cli-highlight renders
 * highlight.js's token tree to HTML and parses that back with parse5 to style each span, which was
 * most of the cost of highlighting a resumed session's code. This walks the token tree itself and
 * styles each scope as cli-highlight styles its span (the theme's entry for the first word of the
 * class, chalk applied to the styled children).
 */
export function createCodeHighlighter(hljs: HLJSApi, theme: Theme): (code: string, language: string) => string {
  const emitters = treeOnlyEmitter(hljs);
  const styles = theme as Record<string, Styler | undefined>;
  const styleOf = (token: string): Styler => NO_THEME[token] || styles[token] || plain;
  const topLevel = NO_THEME.default || styles.default || plain;

  /** A node's text; `inScope` is whether a styled span encloses it (text outside any gets the default style). */
  const render = (node: TokenNode, inScope: boolean): string => {
    if (typeof node === "string") return inScope ? asParsed(node) : topLevel(asParsed(node));
    // A scope without a kind is no span: its children belong to the enclosing one.
    if (!node.kind) return children(node.children, inScope);
    const span = node.sublanguage ? node.kind : `hljs-${node.kind}`;
    const token = /hljs-(\w+)/.exec(span)?.[1];
    // A sublanguage's span has no hljs- class: its text is as if outside any span.
    if (token === undefined) return children(node.children, false);
    return styleOf(token)(children(node.children, true));
  };
  /** Adjacent text is one text node to an HTML parser (a CR at the end of one and a LF at the start of the next are one line break). */
  const children = (nodes: TokenNode[], inScope: boolean): string => {
    let out = "";
    let text = "";
    for (const child of nodes) {
      if (typeof child === "string") {
        text += child;
        continue;
      }
      if (text) out += render(text, inScope);
      text = "";
      out += render(child, inScope);
    }
    return text ? out + render(text, inScope) : out;
  };

  return (code, language) => {
    const result = emitters.treeOnly(() => hljs.highlight(code, { language, ignoreIllegals: true }));
    // highlight.js gave up (its safe mode): cli-highlight shows the escaped code as plain text.
    if (result.illegal || result.errorRaised) return topLevel(asParsed(code));
    const root = (result.emitter as unknown as { rootNode: TokenNode }).rootNode;
    return render(root, false);
  };
}
