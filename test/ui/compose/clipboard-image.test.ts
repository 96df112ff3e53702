import { describe, expect, it } from "vitest";
import { readClipboardImage, type ProgramRunner } from "../../../src/ui/compose/clipboard-image.js";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

/** Clipboard tools as a table: "command arg arg" → output; a missing entry is a missing program. */
function tools(table: Record<string, string | Buffer | null>): { run: ProgramRunner; calls: string[] } {
  const calls: string[] = [];
  const run: ProgramRunner = async (command, args) => {
    const line = [command, ...args].join(" ");
    calls.push(line);
    if (!Object.keys(table).some((k) => k.split(" ")[0] === command)) return { ok: false, stdout: Buffer.alloc(0), missing: true };
    const out = table[line];
    if (out === undefined || out === null) return { ok: false, stdout: Buffer.alloc(0) };
    return { ok: true, stdout: Buffer.isBuffer(out) ? out : Buffer.from(out) };
  };
  return { run, calls };
}

describe("an image from the clipboard", () => {
  it("on Wayland: the best image type wl-paste lists, read with wl-paste", async () => {
    const { run, calls } = tools({
      "wl-paste --list-types": "text/plain\nimage/jpeg\nimage/png\n",
      "wl-paste --no-newline --type image/png": PNG,
    });
    const read = await readClipboardImage({ platform: "linux", env: { WAYLAND_DISPLAY: "wayland-0" }, run });
    expect(read).toEqual({ ok: true, image: { mimeType: "image/png", data: PNG, tool: "wl-paste" } });
    expect(calls).toEqual(["wl-paste --list-types", "wl-paste --no-newline --type image/png"]);
  });

  it("on X11: xclip's TARGETS, then the image", async () => {
    const { run } = tools({
      "xclip -selection clipboard -t TARGETS -o": "TARGETS\nimage/png\nSTRING",
      "xclip -selection clipboard -t image/png -o": PNG,
    });
    expect(await readClipboardImage({ platform: "linux", env: { DISPLAY: ":0" }, run })).toEqual({
      ok: true,
      image: { mimeType: "image/png", data: PNG, tool: "xclip" },
    });
  });

  it("on macOS: the PNG AppleScript gives as hex", async () => {
    const { run } = tools({ "osascript -e the clipboard as «class PNGf»": `«data PNGf${PNG.toString("hex").toUpperCase()}»\n` });
    expect(await readClipboardImage({ platform: "darwin", env: {}, run })).toEqual({
      ok: true,
      image: { mimeType: "image/png", data: PNG, tool: "osascript" },
    });
  });

  it("says why there is no image: only text, no tool, no display, Windows, too big", async () => {
    const text = tools({ "xclip -selection clipboard -t TARGETS -o": "TARGETS\nSTRING\nUTF8_STRING" });
    expect(await readClipboardImage({ platform: "linux", env: { DISPLAY: ":0" }, run: text.run })).toEqual({
      ok: false,
      message: "the clipboard holds no image",
    });
    const none = tools({});
    expect(await readClipboardImage({ platform: "linux", env: { DISPLAY: ":0" }, run: none.run })).toEqual({
      ok: false,
      message: "no clipboard tool found: install xclip, or attach the file with @path",
    });
    expect(await readClipboardImage({ platform: "linux", env: { WAYLAND_DISPLAY: "w", DISPLAY: ":0" }, run: none.run })).toEqual({
      ok: false,
      message: "no clipboard tool found: install wl-clipboard (wl-paste), or attach the file with @path",
    });
    expect(await readClipboardImage({ platform: "linux", env: {}, run: none.run })).toEqual({
      ok: false,
      message: "no display to read the clipboard from (over SSH, attach the file with @path)",
    });
    expect((await readClipboardImage({ platform: "win32", env: {}, run: none.run })).ok).toBe(false);
    const big = tools({ "wl-paste --list-types": "image/png", "wl-paste --no-newline --type image/png": Buffer.alloc(11 * 1024 * 1024) });
    expect(await readClipboardImage({ platform: "linux", env: { WAYLAND_DISPLAY: "w" }, run: big.run })).toEqual({
      ok: false,
      message: "the clipboard image is 11.0 MB, over the 10 MB an image may be",
    });
  });

  it("falls back from Wayland to X11 when wl-paste is not installed", async () => {
    const { run } = tools({ "xclip -selection clipboard -t TARGETS -o": "image/png", "xclip -selection clipboard -t image/png -o": PNG });
    const read = await readClipboardImage({ platform: "linux", env: { WAYLAND_DISPLAY: "w", DISPLAY: ":0" }, run });
    expect(read.ok && read.image.tool).toBe("xclip");
  });
});
