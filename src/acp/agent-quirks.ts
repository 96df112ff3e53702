import type { InitializeResponse } from "@agentclientprotocol/sdk";

/** Behaviour of particular agents that a client has to meet halfway (see ../shared/traces/README.md). */
export interface AgentQuirks {
  /**
   * gemini-cli reads a file through `fs/read_text_file` before creating it and fails the write
   * unless the missing file reads as empty; every other agent gets ACP's resource-not-found error.
   */
  missingFileReadsAsEmpty: boolean;
}

/** The quirks of the agent that answered `initialize`. */
export function quirksOf(init: InitializeResponse | undefined): AgentQuirks {
  const name = init?.agentInfo?.name ?? "";
  return { missingFileReadsAsEmpty: /gemini/i.test(name) };
}
