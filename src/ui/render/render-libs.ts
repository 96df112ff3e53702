import type * as Highlight from "cli-highlight";
import type * as Diff from "diff";
import type * as Marked from "marked";

/**
 * The libraries that draw transcript content: markdown (marked), syntax highlighting (cli-highlight,
 * which brings every highlight.js grammar) and diffs (diff). None is needed for the first frame, and
 * highlighting alone weighs more than the rest of the UI, so they load after it: the App shows the
 * transcript once `loadRenderLibs()` has resolved, and the row renderers read them from `renderLibs()`.
 */
export interface RenderLibs {
  Lexer: typeof Marked.Lexer;
  highlight: typeof Highlight.highlight;
  supportsLanguage: typeof Highlight.supportsLanguage;
  structuredPatch: typeof Diff.structuredPatch;
}

let libs: RenderLibs | undefined;
let loading: Promise<RenderLibs> | undefined;

/** Loads the transcript's libraries once; every later call gets the same promise. */
export function loadRenderLibs(): Promise<RenderLibs> {
  loading ??= Promise.all([import("marked"), import("cli-highlight"), import("diff")]).then(([marked, highlightModule, diff]) => {
    // cli-highlight is CommonJS. Node and vitest give its exports by name; the bundle gives only
    // `default` (module.exports).
    const byName = highlightModule as Partial<typeof Highlight>;
    const highlighting =
      typeof byName.supportsLanguage === "function"
        ? (byName as typeof Highlight)
        : (highlightModule as unknown as { default: typeof Highlight }).default;
    libs = {
      Lexer: marked.Lexer,
      highlight: highlighting.highlight,
      supportsLanguage: highlighting.supportsLanguage,
      structuredPatch: diff.structuredPatch,
    };
    return libs;
  });
  return loading;
}

/** Whether the libraries are loaded, so transcript content can be drawn now. */
export function renderLibsLoaded(): boolean {
  return libs !== undefined;
}

/** The loaded libraries; only components drawn after `loadRenderLibs()` resolved may call this. */
export function renderLibs(): RenderLibs {
  if (!libs) throw new Error("transcript content was drawn before its libraries were loaded (loadRenderLibs)");
  return libs;
}
