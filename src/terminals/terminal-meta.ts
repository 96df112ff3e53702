/** The display-terminal `_meta` reader is shared with the session reducer, which owns it. */
export * from "../session/terminal-meta.js";
