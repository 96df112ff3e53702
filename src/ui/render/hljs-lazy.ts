import type { HLJSApi } from "./code-highlight.js";
import { HLJS_ALIASES } from "./hljs-aliases.js";

type LanguageFn = Parameters<HLJSApi["registerLanguage"]>[1];
/** A grammar's mode, as far as this file reads it. */
interface Mode {
  subLanguage?: string | string[];
  contains?: unknown;
  variants?: unknown;
  starts?: unknown;
}

const ALIASES = new Map(HLJS_ALIASES.split(" ").map((entry) => entry.split("=") as [string, string]));

/**
 * highlight.js's index registers its ~190 grammars when imported, running every definition (~75 ms
 * and ~6 MB of heap on this machine), and a transcript uses a few of them. This takes the index's
 * grammars without running them (`loadIndex` imports it while `registerLanguage` only records) and
 * registers each one the first time it is asked for, so highlighting gives what it gives with every
 * grammar registered:
 * - the grammars a grammar embeds (`subLanguage`) are registered with it; an empty list means any
 *   grammar, so all are;
 * - auto-detection (an embedded list) tries the grammars in the index's order;
 * - a definition that asks whether another grammar is there (c-like, htmlbars) is told what it is
 *   told with the index's order.
 * Resolves to a function giving the grammar's registered name for a language name or alias, or
 * undefined for a language highlight.js does not know. If the index was already imported, the grammars are all there.
 */
export async function lazyGrammars(hljs: HLJSApi, loadIndex: () => Promise<unknown>): Promise<(language: string) => string | undefined> {
  const order: [string, LanguageFn][] = [];
  const registerNow = hljs.registerLanguage;
  hljs.registerLanguage = (name, definition) => void order.push([name, definition]);
  try {
    await loadIndex();
  } finally {
    hljs.registerLanguage = registerNow;
  }
  if (order.length === 0) return (language) => (hljs.getLanguage(language) ? language : undefined);

  const position = new Map(order.map(([name], i) => [name, i]));
  const definitions = new Map(order);
  const registered = new Set<string>();
  hljs.configure({ languages: order.map(([name]) => name) });
  const nameOf = (language: string): string | undefined => {
    const key = language.toLowerCase();
    return definitions.has(key) ? key : ALIASES.get(key);
  };

  const register = (name: string): void => {
    if (registered.has(name)) return;
    registered.add(name);
    const at = position.get(name) ?? 0;
    // The index registers in order: a grammar before this one is there when this one is defined, one after is not.
    const getLanguage = (language: string) => {
      const key = (language || "").toLowerCase();
      if (!definitions.has(key)) return hljs.getLanguage(key);
      if ((position.get(key) ?? 0) >= at) return undefined;
      register(key);
      return hljs.getLanguage(key);
    };
    const asIndexed = Object.create(hljs, { getLanguage: { value: getLanguage } }) as HLJSApi;
    const definition = definitions.get(name) as LanguageFn;
    hljs.registerLanguage(name, () => definition(asIndexed));
    embedded(hljs.getLanguage(name) as Mode, new Set());
  };

  const embedded = (mode: unknown, seen: Set<unknown>): void => {
    if (mode === null || typeof mode !== "object" || seen.has(mode)) return;
    seen.add(mode);
    if (Array.isArray(mode)) {
      for (const m of mode) embedded(m, seen);
      return;
    }
    const { subLanguage, contains, variants, starts } = mode as Mode;
    // One name is looked up among grammars by name only; a list is auto-detected, aliases and all.
    if (typeof subLanguage === "string" && definitions.has(subLanguage)) register(subLanguage);
    if (Array.isArray(subLanguage)) {
      if (subLanguage.length === 0) for (const [name] of order) register(name);
      for (const language of subLanguage) {
        const name = nameOf(language);
        if (name) register(name);
      }
    }
    embedded(contains, seen);
    embedded(variants, seen);
    embedded(starts, seen);
  };

  return (language) => {
    const name = nameOf(language);
    if (name) register(name);
    return name;
  };
}
