import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import React from "react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "ink-testing-library";
import { App } from "../../src/ui/app/app.js";
import type { ClipboardRead } from "../../src/ui/compose/clipboard-image.js";
import { buildPrompt } from "../../src/ui/compose/prompt-blocks.js";
import { tempDir } from "../support/run-conch.js";
import { FakeSession, KEY, plain, tick, until } from "./fake-session.js";

const saved = { VISUAL: process.env.VISUAL };
afterEach(() => {
  cleanup();
  if (saved.VISUAL === undefined) delete process.env.VISUAL;
  else process.env.VISUAL = saved.VISUAL;
});

const CTRL_G = "\x07";
const ALT_V = "\x1bv";
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

function renderApp(session: FakeSession, extra: Partial<React.ComponentProps<typeof App>> = {}) {
  const view = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={0} {...extra} />);
  return { ...view, frame: () => plain(view.lastFrame()) };
}

async function type(stdin: { write(s: string): void }, text: string) {
  stdin.write(text);
  await tick();
}

describe("writing a message in the external editor (Ctrl-G)", () => {
  it("lends the terminal to $VISUAL on the current input and takes its text back into the input", async () => {
    const editor = path.join(tempDir(), "editor.sh");
    writeFileSync(editor, `#!/bin/sh\n{ cat "$1"; printf ' and more\\nfrom the editor\\n'; } > "$1.new" && mv "$1.new" "$1"\n`);
    chmodSync(editor, 0o755);
    process.env.VISUAL = editor;
    const lent: string[] = [];
    const session = new FakeSession().open();
    const { stdin, frame } = renderApp(session, { handoff: { release: () => lent.push("release"), reclaim: () => lent.push("reclaim") } });
    await tick();
    await type(stdin, "a draft");
    await type(stdin, CTRL_G);
    await until(() => expect(frame()).toContain("› a draft and more"));
    expect(frame()).toContain("from the editor");
    expect(lent).toEqual(["release", "reclaim"]);
    await type(stdin, KEY.enter);
    expect(session.calls[0]).toEqual({ intent: "send", args: ["a draft and more\nfrom the editor", undefined] });
  });

  it("says so when the editor fails, and keeps the input", async () => {
    process.env.VISUAL = "/nonexistent/editor";
    const session = new FakeSession().open();
    const { stdin, frame } = renderApp(session, { handoff: { release: () => undefined, reclaim: () => undefined } });
    await tick();
    await type(stdin, "keep me");
    await type(stdin, CTRL_G);
    await until(() => expect(frame()).toContain("the editor (/nonexistent/editor) was not found: set $VISUAL or $EDITOR"));
    expect(frame()).toContain("› keep me");
  });
});

describe("pasting an image from the clipboard (Alt-V)", () => {
  const clipboard = (read: ClipboardRead) => async () => read;

  it("puts a label in the message and sends the image with it as an image block", async () => {
    const session = new FakeSession().open({ agentCapabilities: { promptCapabilities: { image: true } } });
    const { stdin, frame } = renderApp(session, {
      readClipboard: clipboard({ ok: true, image: { mimeType: "image/png", data: PNG, tool: "xclip" } }),
    });
    await tick();
    await type(stdin, "what is this? ");
    await type(stdin, ALT_V);
    await until(() => expect(frame()).toContain("› what is this? [image 1]"));
    expect(frame()).toContain("[image 1]: 1 KB image/png from the clipboard (xclip), sent with the message");
    await type(stdin, KEY.enter);
    expect(session.calls[0]).toEqual({
      intent: "send",
      args: [
        "what is this? [image 1]",
        [
          { type: "text", text: "what is this? [image 1]" },
          { type: "image", mimeType: "image/png", data: PNG.toString("base64") },
        ],
      ],
    });
    await until(() => expect(frame()).toContain("[image 1]: attached as an image"));
  });

  it("refuses for an agent that takes no images, and says why", async () => {
    const session = new FakeSession().open({ agentCapabilities: { promptCapabilities: {} } });
    let read = 0;
    const { stdin, frame } = renderApp(session, {
      readClipboard: async () => {
        read++;
        return { ok: false, message: "unused" };
      },
    });
    await tick();
    await type(stdin, ALT_V);
    await until(() =>
      expect(frame()).toContain("fake does not take images (no promptCapabilities.image): send the file as a link with @path"),
    );
    expect(read).toBe(0);
  });

  it("says what the clipboard had instead, from /paste-image too", async () => {
    const session = new FakeSession().open({ agentCapabilities: { promptCapabilities: { image: true } } });
    const { stdin, frame } = renderApp(session, { readClipboard: clipboard({ ok: false, message: "the clipboard holds no image" }) });
    await tick();
    await type(stdin, "/paste-image");
    await type(stdin, KEY.enter);
    await until(() => expect(frame()).toContain("the clipboard holds no image"));
  });
});

describe("a prompt's pasted images", () => {
  it("go as image blocks while their label is in the text, and not once it was deleted", () => {
    const pasted = [
      { label: "[image 1]", mimeType: "image/png", data: "AAA" },
      { label: "[image 2]", mimeType: "image/jpeg", data: "BBB" },
    ];
    const built = buildPrompt("compare [image 2] with that", { cwd: "/", images: true, pasted });
    expect(built.blocks).toEqual([
      { type: "text", text: "compare [image 2] with that" },
      { type: "image", mimeType: "image/jpeg", data: "BBB" },
    ]);
    expect(built.notes).toEqual(["[image 2]: attached as an image"]);
    expect(buildPrompt("no label", { cwd: "/", images: true, pasted }).blocks).toBeNull();
  });
});
