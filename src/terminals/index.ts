/** The terminals layer: what the acp/, orchestrator/ and ui/ layers import. */
export { ClientTerminal, type ClientTerminalOptions } from "./client-terminal.js";
export { DisplayTerminal, type DisplayTerminalOptions } from "./display-terminal.js";
export type { Unsubscribe } from "./listener-set.js";
export { DEFAULT_OUTPUT_BYTE_LIMIT } from "./output-log.js";
export type { ExitStatus, Terminal, TerminalKind } from "./terminal.js";
export {
  hasTerminalMeta,
  readTerminalMeta,
  type TerminalExitMeta,
  type TerminalInfoMeta,
  type TerminalMeta,
  type TerminalOutputMeta,
} from "./terminal-meta.js";
export {
  TerminalRegistry,
  type AnyTerminal,
  type CreateClientTerminalParams,
  type TerminalRegistryChange,
  type TerminalRegistryOptions,
} from "./terminal-registry.js";
export {
  TerminalScreen,
  type ScreenColor,
  type ScreenLine,
  type ScreenSegment,
  type SnapshotOptions,
  type TerminalScreenOptions,
} from "./terminal-screen.js";
