// Types of layers.mjs, for the TypeScript that reads it (src/docs/architecture-map.ts and its test).

/** src/'s folders, one line each. */
export declare const SRC: Record<string, string>;

/** The lint's rules between src/'s folders besides ui/'s stack and orchestrator/'s rooms. */
export declare const LAYER_RULES: {
  ui: { never: string[]; typesOnly: string[]; why: string };
  session: { only: string[]; typesOnly: string[]; why: string };
};

/** src/ui as a stack of levels, top first; each level's folders with one line each (`.` is ui/'s own files). */
export declare const UI: { dir: string; levels: Record<string, string>[] };

/** src/orchestrator: its core and the rooms beside it. */
export declare const ORCHESTRATOR: {
  dir: string;
  core: string;
  rooms: Record<string, string>;
  corePorts: string[];
  builders: Record<string, string[]>;
  roomImports: Record<string, string[]>;
};
