import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { completeMention, FileIndex, mentionAt } from "../../../src/ui/compose/file-mentions.js";
import { buildPrompt, mentionedPaths } from "../../../src/ui/compose/prompt-blocks.js";

function project(): string {
  const root = mkdtempSync(path.join(tmpdir(), "conch-mentions-"));
  mkdirSync(path.join(root, "src/ui"), { recursive: true });
  mkdirSync(path.join(root, "node_modules/pkg"), { recursive: true });
  mkdirSync(path.join(root, ".git"), { recursive: true });
  writeFileSync(path.join(root, "README.md"), "# hi\n");
  writeFileSync(path.join(root, "src/ui/app.tsx"), "x");
  writeFileSync(path.join(root, "src/main.ts"), "x");
  writeFileSync(path.join(root, "node_modules/pkg/app.js"), "x");
  writeFileSync(path.join(root, ".git/HEAD"), "x");
  writeFileSync(path.join(root, "shot.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  return root;
}

describe("@ file mentions", () => {
  it("finds the @word at the cursor", () => {
    expect(mentionAt("look at @src/ma", 15)).toEqual({ start: 8, query: "src/ma" });
    expect(mentionAt("@", 1)).toEqual({ start: 0, query: "" });
    expect(mentionAt("mail me@example.com", 19)).toBeNull();
    expect(mentionAt("@src and more", 3)).toBeNull();
  });

  it("walks the tree lazily, skipping node_modules and .git, best matches first", async () => {
    const index = new FileIndex(project());
    expect(index.complete).toBe(false);
    await index.ready();
    expect(index.search("app")).toEqual(["src/ui/app.tsx"]);
    expect(index.search("src/")).toEqual(["src/ui/", "src/main.ts", "src/ui/app.tsx"]);
    expect(index.search("HEAD")).toEqual([]);
  });

  it("stops at its cap", async () => {
    const index = new FileIndex(project(), { maxEntries: 2 });
    await index.ready();
    expect(index.search("").length).toBe(2);
  });

  it("completes a file with a space after it and a folder without", () => {
    const text = "see @sr please";
    const m = mentionAt("see @sr", 7)!;
    expect(completeMention(text, m, "src/main.ts")).toEqual({ text: "see @src/main.ts  please", cursor: 17 });
    expect(completeMention("see @sr", m, "src/ui/").text).toBe("see @src/ui/");
  });
});

describe("prompt blocks", () => {
  it("sends plain text when nothing is mentioned", () => {
    expect(buildPrompt("just text, no @ here", { cwd: project(), images: true })).toEqual({ blocks: null, notes: [] });
  });

  it("adds a resource link after the text for each mentioned file, once", () => {
    const root = project();
    const { blocks, notes } = buildPrompt("fix @src/main.ts and @README.md, then @src/main.ts again", { cwd: root, images: false });
    expect(blocks).toEqual([
      { type: "text", text: "fix @src/main.ts and @README.md, then @src/main.ts again" },
      { type: "resource_link", uri: pathToFileURL(path.join(root, "src/main.ts")).href, name: "main.ts" },
      { type: "resource_link", uri: pathToFileURL(path.join(root, "README.md")).href, name: "README.md" },
    ]);
    expect(notes).toEqual(["@src/main.ts: sent as a link", "@README.md: sent as a link"]);
    expect(mentionedPaths("@a @b @a")).toEqual(["a", "b"]);
  });

  it("attaches an image as an image block when the agent takes images, else links it and says why", () => {
    const root = project();
    const withImages = buildPrompt("what is @shot.png", { cwd: root, images: true });
    expect(withImages.blocks![1]).toMatchObject({
      type: "image",
      mimeType: "image/png",
      data: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString("base64"),
    });
    expect(withImages.notes).toEqual(["@shot.png: attached as an image"]);
    const without = buildPrompt("what is @shot.png", { cwd: root, images: false });
    expect(without.blocks![1]).toMatchObject({ type: "resource_link", name: "shot.png" });
    expect(without.notes).toEqual(["@shot.png: sent as a link, the agent does not accept images"]);
  });

  it("ignores @words that are not files", () => {
    expect(buildPrompt("ping @channel", { cwd: project(), images: true }).blocks).toBeNull();
  });
});
