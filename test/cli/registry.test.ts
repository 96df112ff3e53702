import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveAgent } from "../../src/agents/presets.js";
import { registryLaunch } from "../../src/agents/registry/registry-agent.js";
import { readRegistry, registryPlatform, type RegistryEntry } from "../../src/agents/registry/registry-format.js";
import { loadRegistry, refreshRegistry, registryAge } from "../../src/agents/registry/registry-store.js";
import { REGISTRY_SNAPSHOT } from "../../src/agents/registry/registry-snapshot.js";
import { registryRows } from "../../src/cli/registry-command.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(path.join(tmpdir(), "conch-registry-"));
  dirs.push(d);
  return d;
};
const entry = (distribution: RegistryEntry["distribution"], id = "some-agent"): RegistryEntry => ({
  id,
  name: "Some Agent",
  version: "1.2.3",
  description: "an agent",
  distribution,
});
const binary = { [registryPlatform()]: { archive: "https://example.invalid/a.tar.gz", cmd: "./some-agent", args: ["acp"] } };

describe("the ACP registry's format", () => {
  it("reads the shipped snapshot: every agent fits, none left out", () => {
    const index = readRegistry(REGISTRY_SNAPSHOT.registry);
    expect(index.agents.length).toBeGreaterThanOrEqual(10);
    expect(index.skipped).toEqual([]);
    expect(index.agents.map((a) => a.id)).toContain("codex-acp");
  });

  it("leaves out an entry it cannot read, and says which; refuses what is no index at all", () => {
    const index = readRegistry({ version: "1.0.0", agents: [entry({ npx: { package: "x" } }), { id: "broken", name: "B" }] });
    expect(index.agents.map((a) => a.id)).toEqual(["some-agent"]);
    expect(index.skipped[0]).toMatch(/^broken: /);
    expect(() => readRegistry({ agents: "no" })).toThrow(/not an ACP registry index/);
  });
});

describe("a registry agent starts the way the registry says, never from a download", () => {
  it("its binary when that command is on PATH, with the registry's args", () => {
    const launch = registryLaunch(entry({ binary }), (bin) => (bin === "some-agent" ? "/opt/bin/some-agent" : undefined));
    expect(launch).toEqual({
      ok: true,
      how: "path",
      what: "/opt/bin/some-agent",
      command: { command: "/opt/bin/some-agent", args: ["acp"] },
    });
  });

  it("else its npm package through npx -y, with its args and env", () => {
    const launch = registryLaunch(entry({ binary, npx: { package: "@x/agent@1.2.3", args: ["--acp"], env: { A: "1" } } }), () => undefined);
    expect(launch).toMatchObject({
      ok: true,
      how: "npx",
      command: { command: "npx", args: ["-y", "@x/agent@1.2.3", "--acp"], env: { A: "1" } },
    });
  });

  it("a binary-only agent that is not installed is an error naming the archive, not a download", () => {
    const launch = registryLaunch(entry({ binary }), () => undefined);
    expect(launch.ok).toBe(false);
    expect(!launch.ok && launch.why).toBe(
      "Some Agent is distributed as a download (https://example.invalid/a.tar.gz); conch does not download executables: install it so that `some-agent` is on PATH",
    );
  });

  it("uvx only when uv is installed", () => {
    expect(registryLaunch(entry({ uvx: { package: "pkg" } }), () => undefined)).toMatchObject({ ok: false });
    expect(registryLaunch(entry({ uvx: { package: "pkg" } }), (b) => (b === "uvx" ? "/u/uvx" : undefined))).toMatchObject({
      ok: true,
      command: { command: "uvx", args: ["pkg"] },
    });
  });

  it("--agent <id> resolves through the registry; presets, config entries and programs on PATH come first", () => {
    const bin = tmp();
    writeFileSync(path.join(bin, "some-agent"), "#!/bin/sh\n");
    chmodSync(path.join(bin, "some-agent"), 0o755);
    const index = readRegistry({
      version: "1.0.0",
      agents: [entry({ binary }, "kit-agent"), entry({ npx: { package: "@g/g" } }, "gemini")],
    });
    const agent = resolveAgent("kit-agent", {}, bin, () => index);
    expect(agent).toMatchObject({ name: "kit-agent", via: "registry", command: { command: path.join(bin, "some-agent"), args: ["acp"] } });
    expect(resolveAgent("gemini", {}, bin, () => index).via).not.toBe("registry");
    expect(resolveAgent("some-agent", {}, bin, () => index).via).toBe("command");
    expect(() => resolveAgent("kit-agent", {}, "/nonexistent", () => index)).toThrow(/conch does not download executables/);
  });
});

describe("the registry conch runs from, and how old it is", () => {
  it("the shipped snapshot until a refresh; then the refreshed copy, kept for the next run", async () => {
    const dir = tmp();
    const cache = path.join(dir, "registry.json");
    expect(loadRegistry(cache, {}).origin).toBe("shipped");
    const fake = (async () =>
      new Response(JSON.stringify({ version: "1.0.0", agents: [entry({ npx: { package: "p" } })], extensions: [] }))) as typeof fetch;
    const got = await refreshRegistry(cache, { fetch: fake, now: () => new Date("2030-01-02T00:00:00Z") });
    expect(got.origin).toBe("refreshed");
    const again = loadRegistry(cache, {});
    expect(again).toMatchObject({ origin: "refreshed", fetchedAt: "2030-01-02T00:00:00.000Z" });
    expect(again.index.agents.map((a) => a.id)).toEqual(["some-agent"]);
    expect(JSON.parse(readFileSync(cache, "utf8")).url).toBe("https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json");
  });

  it("offline, a refresh says so plainly and keeps the copy in use", async () => {
    const dir = tmp();
    const cache = path.join(dir, "registry.json");
    const offline = (async () => {
      throw Object.assign(new TypeError("fetch failed"), { cause: { code: "ENOTFOUND" } });
    }) as typeof fetch;
    await expect(refreshRegistry(cache, { fetch: offline })).rejects.toThrow(
      "could not fetch the ACP registry from https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json: the host name does not resolve (ENOTFOUND): offline?",
    );
    expect(loadRegistry(cache, {}).origin).toBe("shipped");
  });

  it("$CONCH_REGISTRY names a registry file to use instead (a test registry of installed agents)", () => {
    const dir = tmp();
    const file = path.join(dir, "r.json");
    writeFileSync(file, JSON.stringify({ version: "1.0.0", agents: [entry({ binary }, "kit-agent")] }));
    expect(loadRegistry(path.join(dir, "cache.json"), { CONCH_REGISTRY: file })).toMatchObject({ origin: "file", source: file });
  });

  it("says how old a copy is", () => {
    expect(registryAge("2026-02-07T18:22:39.000Z", new Date("2026-11-26T09:00:00Z"))).toBe("from 2026-02-07, 291 days old");
    expect(registryAge("2026-11-26T08:00:00.000Z", new Date("2026-11-26T09:00:00Z"))).toBe("from 2026-11-26, fetched today");
  });

  it("lists each agent with how it would start here; a preset of the same name is said to win", () => {
    const rows = registryRows(loadRegistry(path.join(tmp(), "none.json"), {}), "/nonexistent");
    const gemini = rows.find((r) => r.id === "gemini")!;
    expect(gemini).toMatchObject({ runnable: true, shadowedByPreset: true });
    expect(gemini.starts).toMatch(/^npx @google\/gemini-cli@/);
    expect(rows.find((r) => r.id === "codex-acp")).toMatchObject({ runnable: false, shadowedByPreset: false });
  });
});
