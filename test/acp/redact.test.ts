import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_REDACT_DEPTH, Redactor, redactSecrets, secretsPassedToAgent, TOO_DEEP } from "../../src/acp/redact.js";
import { TraceWriter } from "../../src/acp/trace-writer.js";
import { tempDir } from "../support/run-conch.js";

/** `{"a":{"a":…{"a":"bottom"}…}}`, `depth` levels, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value as Record<string, unknown>;
}

describe("secrets in traces and logs", () => {
  it("redacts values under secret-looking keys, env/header pairs, and token-shaped strings", () => {
    const msg = {
      params: {
        mcpServers: [
          {
            name: "gh",
            command: "x",
            args: [],
            env: [
              { name: "GITHUB_TOKEN", value: "abc" },
              { name: "MODE", value: "fast" },
            ],
          },
        ],
        headers: [{ name: "Authorization", value: "Bearer xyz" }],
        apiKey: "plain",
        text: "my key is sk-ant-api03-ABCDEFGHIJKLMNOP and that's it",
      },
    };
    const out = redactSecrets(msg);
    expect(out.params.mcpServers[0].env).toEqual([
      { name: "GITHUB_TOKEN", value: "[redacted]" },
      { name: "MODE", value: "fast" },
    ]);
    expect(out.params.headers[0].value).toBe("[redacted]");
    expect(out.params.apiKey).toBe("[redacted]");
    expect(out.params.text).toBe("my key is [redacted] and that's it");
    expect(msg.params.apiKey).toBe("plain");
  });

  it("every MCP header value is a secret, and so is the value after a secret flag in args", () => {
    const out = redactSecrets({
      mcpServers: [
        { type: "http", name: "docs", url: "https://x", headers: [{ name: "X-Custom", value: "opaque-but-private" }] },
        { name: "db", command: "srv", args: ["--port", "5432", "--api-key", "k-12345", "--password=hunter22", "--verbose"], env: [] },
      ],
    });
    expect(out.mcpServers[0].headers).toEqual([{ name: "X-Custom", value: "[redacted]" }]);
    expect(out.mcpServers[1].args).toEqual(["--port", "5432", "--api-key", "[redacted]", "--password=[redacted]", "--verbose"]);
  });

  it("finds token shapes in free text: OpenAI, GitHub, Slack, JWT, Bearer, URL passwords, long values after =", () => {
    const r = new Redactor();
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    const text = [
      "key sk-proj-abcdefghij0123456789",
      "gh ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      "slack xoxb-1234567890-abcdefghij",
      `jwt ${jwt}`,
      "Authorization: Bearer abcdef0123456789abcdef",
      "db postgres://admin:s3cretpw@db.local/app",
      "url https://h/cb?sig=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08&x=1",
      "env OPENAI_API_KEY=whatever-it-is",
    ].join("\n");
    const out = r.text(text);
    for (const secret of [
      "sk-proj-abcdefghij0123456789",
      "ghp_abcdefghij",
      "xoxb-1234567890",
      jwt,
      "abcdef0123456789abcdef",
      "s3cretpw",
      "9f86d081884c7d65",
      "whatever-it-is",
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain("Bearer [redacted]");
    expect(out).toContain("postgres://admin:[redacted]@db.local/app");
    expect(out).toContain("OPENAI_API_KEY=[redacted]");
    expect(r.text("ordinary text with a path /usr/lib/x=1 and 42 tokens")).toBe("ordinary text with a path /usr/lib/x=1 and 42 tokens");
  });

  it("the exact values conch passed to the agent are redacted wherever they appear, short harmless ones are not", () => {
    const known = secretsPassedToAgent(
      { MY_PASSWORD: "pw-1234", MODE: "fast", CONFIG_DIR: "/home/u/.config/agent-home-1", OPAQUE: "Zq8Xv2Lr9Tn4Wm7Kp3Hs" },
      [
        { name: "s", command: "x", args: ["--token", "tok-999"], env: [{ name: "REGION", value: "eu-west-1" }] },
        { type: "http", name: "h", url: "https://h", headers: [{ name: "X-Session", value: "sess-abc" }] },
      ],
    );
    expect(known.sort()).toEqual(["Zq8Xv2Lr9Tn4Wm7Kp3Hs", "pw-1234", "sess-abc", "tok-999"].sort());
    const r = new Redactor(known);
    expect(r.text("login pw-1234 then Zq8Xv2Lr9Tn4Wm7Kp3Hs and sess-abc; tok-999, mode fast in eu-west-1")).toBe(
      "login [redacted] then [redacted] and [redacted]; [redacted], mode fast in eu-west-1",
    );
    expect(r.json({ result: { text: "echo pw-1234" } })).toEqual({ result: { text: "echo [redacted]" } });
  });

  it("a 100k-deep message is redacted without recursion: the deep part becomes a marker, and the copy serializes", () => {
    const deep = nested(100_000);
    const out = new Redactor().json({ jsonrpc: "2.0", method: "session/update", params: deep });
    let cur: unknown = out.params;
    let depth = 1;
    while (cur && typeof cur === "object") {
      cur = (cur as { a: unknown }).a;
      depth++;
    }
    expect(cur).toBe(TOO_DEEP);
    expect(depth).toBe(MAX_REDACT_DEPTH);
    expect(() => JSON.stringify(out)).not.toThrow();
  });

  it("keeps key order and keys such as __proto__", () => {
    const input = JSON.parse('{"b":1,"a":{"z":"x","y":"w"},"__proto__":{"token":"t"}}') as object;
    const out = redactSecrets(input);
    expect(JSON.stringify(out)).toBe('{"b":1,"a":{"z":"x","y":"w"},"__proto__":{"token":"[redacted]"}}');
  });
});

describe("the trace file", () => {
  it("is created with its missing folders (0700), is 0600 even when an older file was 0644, and survives a 100k-deep message", () => {
    const dir = tempDir();
    const file = path.join(dir, "new/sub/trace.jsonl");
    const t = new TraceWriter(file, new Redactor(["sekrit-value-123"]));
    t.message("agent", { jsonrpc: "2.0", method: "x", params: { a: "sekrit-value-123", deep: nested(100_000) } } as never);
    t.close();
    expect(statSync(path.join(dir, "new")).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { msg?: { params: { a: string } } });
    expect(lines[1].msg!.params.a).toBe("[redacted]");
    expect(readFileSync(file, "utf8")).toContain(TOO_DEEP);

    const old = path.join(dir, "old.jsonl");
    mkdirSync(dir, { recursive: true });
    writeFileSync(old, "from before\n", { mode: 0o644 });
    new TraceWriter(old).close();
    expect(statSync(old).mode & 0o777).toBe(0o600);
  });
});
