import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import type { DemoConfig } from "./demo-config.js";

/** The parts of the process a scenario may touch; tests swap them so `crash` does not end the test run. */
export interface ProcessControl {
  exit(code: number): void;
  writeStderr(text: string): void;
}

/** What every turn can see besides its session: settings, the client's capabilities, the process. */
export interface DemoEnvironment {
  readonly config: DemoConfig;
  /** Set by `initialize`; empty until then. */
  clientCapabilities: ClientCapabilities;
  readonly processControl: ProcessControl;
  /** Saves every live session before returning, for the moments the process is about to exit. */
  saveAllSync(): void;
}

/** The real process: exit for real, write to the real stderr. */
export const realProcess: ProcessControl = {
  exit: (code) => process.exit(code),
  writeStderr: (text) => {
    process.stderr.write(text);
  },
};

/** Whether the client advertised the `_meta.terminal_output` extension (display-only agent terminals). */
export function supportsTerminalOutputMeta(capabilities: ClientCapabilities): boolean {
  return capabilities._meta?.terminal_output === true;
}
