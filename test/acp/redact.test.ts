import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../src/acp/redact.js";

describe("secrets in traces and logs", () => {
  it("redacts values under secret-looking keys, env/header pairs, and token-shaped strings", () => {
    const msg = {
      params: {
        mcpServers: [{ name: "gh", command: "x", args: [], env: [{ name: "GITHUB_TOKEN", value: "abc" }, { name: "MODE", value: "fast" }] }],
        headers: [{ name: "Authorization", value: "Bearer xyz" }],
        apiKey: "plain",
        text: "my key is sk-ant-api03-ABCDEFGHIJKLMNOP and that's it",
      },
    };
    const out = redactSecrets(msg);
    expect(out.params.mcpServers[0].env).toEqual([{ name: "GITHUB_TOKEN", value: "[redacted]" }, { name: "MODE", value: "fast" }]);
    expect(out.params.headers[0].value).toBe("[redacted]");
    expect(out.params.apiKey).toBe("[redacted]");
    expect(out.params.text).toBe("my key is [redacted] and that's it");
    expect(msg.params.apiKey).toBe("plain");
  });
});
