import type * as Diff from "diff";
import type * as Marked from "marked";
import { createCodeHighlighter, type HLJSApi } from "./code-highlight.js";
import { lazyGrammars } from "./hljs-lazy.js";

/**
 * The libraries that draw transcript content: markdown (marked), syntax highlighting (highlight.js,
 * each grammar registered when first used, styled with cli-highlight's theme) and diffs (diff). None is needed for the first frame, and
 * highlighting alone weighs more than the rest of the UI, so they load after it: the App shows the
 * transcript once `loadRenderLibs()` has resolved, and the row renderers read them from `renderLibs()`.
 */
export interface RenderLibs {
  Lexer: typeof Marked.Lexer;
  /** `code` highlighted as `language` (one `supportsLanguage` knows), as ANSI text. */
  highlight(code: string, language: string): string;
  supportsLanguage(language: string): boolean;
  structuredPatch: typeof Diff.structuredPatch;
}

let libs: RenderLibs | undefined;
let loading: Promise<RenderLibs> | undefined;

/** Loads the transcript's libraries once; every later call gets the same promise. */
export function loadRenderLibs(): Promise<RenderLibs> {
  loading ??= Promise.all([import("marked"), import("highlight.js/lib/core"), import("cli-highlight/dist/theme.js"), import("diff")]).then(
    async ([marked, hljsModule, themeModule, diff]) => {
      // highlight.js and cli-highlight's theme are CommonJS: Node and vitest give their exports by
      // name as well, the bundle only as `default` (module.exports).
      const hljs = ((hljsModule as { default?: HLJSApi }).default ?? hljsModule) as unknown as HLJSApi;
      const theme = themeModule.DEFAULT_THEME ?? (themeModule as unknown as { default: typeof themeModule }).default.DEFAULT_THEME;
      // Every grammar is known, each is registered when first used (hljs-lazy.ts).
      const grammarOf = await lazyGrammars(hljs, () => import("highlight.js"));
      grammarOf("plaintext");
      const highlight = createCodeHighlighter(hljs, theme);
      libs = {
        Lexer: marked.Lexer,
        highlight: (code, language) => highlight(code, grammarOf(language) ?? language),
        supportsLanguage: (language) => grammarOf(language) !== undefined,
        structuredPatch: diff.structuredPatch,
      };
      return libs;
    },
  );
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
