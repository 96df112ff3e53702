import { readFileSync } from "node:fs";
import type { Implementation } from "@agentclientprotocol/sdk";

/** The `agentInfo` of `initialize`; the version is conch's own, read from its package.json. */
export const AGENT_INFO: Implementation = {
  name: "conch-demo",
  title: "conch demo agent",
  version: readConchVersion(),
};

function readConchVersion(): string {
  try {
    // Two levels up from both src/demo/ (tests) and dist/demo/ (the built agent).
    const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && "version" in parsed && typeof parsed.version === "string") {
      return parsed.version;
    }
  } catch {
    // A missing package.json must not stop the demo.
  }
  return "0.0.0";
}
