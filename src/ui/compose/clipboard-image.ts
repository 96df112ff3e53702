import { execFile } from "node:child_process";
import { MAX_IMAGE_BYTES } from "./prompt-blocks.js";

/** An image read from the clipboard. */
export interface ClipboardImage {
  mimeType: string;
  data: Buffer;
  /** The program that read it, for the note under the input. */
  tool: string;
}

/** The image, or why there is none, in words for the person. */
export type ClipboardRead = { ok: true; image: ClipboardImage } | { ok: false; message: string };

/** Runs a program and gives its whole output; never throws. */
export type ProgramRunner = (command: string, args: string[]) => Promise<{ ok: boolean; stdout: Buffer; missing?: boolean }>;

/** How long a clipboard tool may take: xclip can wait for a clipboard owner that never answers. */
const TOOL_TIMEOUT_MS = 5000;

const runProgram: ProgramRunner = (command, args) =>
  new Promise((resolve) => {
    execFile(command, args, { encoding: "buffer", timeout: TOOL_TIMEOUT_MS, maxBuffer: MAX_IMAGE_BYTES * 2 + 1024 }, (err, stdout) => {
      const missing = (err as NodeJS.ErrnoException | null)?.code === "ENOENT";
      resolve({ ok: !err, stdout: stdout ?? Buffer.alloc(0), missing });
    });
  });

/** The image types agents take, best first. */
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];

function pickType(listed: string): string | undefined {
  const types = listed.split(/\s+/).filter(Boolean);
  return IMAGE_TYPES.find((t) => types.includes(t));
}

/** An image's bytes, refused when too big to send. */
function sized(image: ClipboardImage): ClipboardRead {
  if (image.data.length === 0) return { ok: false, message: "the clipboard holds no image" };
  if (image.data.length > MAX_IMAGE_BYTES)
    return {
      ok: false,
      message: `the clipboard image is ${(image.data.length / 1024 / 1024).toFixed(1)} MB, over the ${MAX_IMAGE_BYTES / 1024 / 1024} MB an image may be`,
    };
  return { ok: true, image };
}

async function wayland(run: ProgramRunner): Promise<ClipboardRead | undefined> {
  const listed = await run("wl-paste", ["--list-types"]);
  if (listed.missing) return undefined;
  const type = listed.ok ? pickType(listed.stdout.toString("utf8")) : undefined;
  if (!type) return { ok: false, message: "the clipboard holds no image" };
  const got = await run("wl-paste", ["--no-newline", "--type", type]);
  return got.ok
    ? sized({ mimeType: type, data: got.stdout, tool: "wl-paste" })
    : { ok: false, message: "wl-paste could not read the clipboard" };
}

async function x11(run: ProgramRunner): Promise<ClipboardRead | undefined> {
  const listed = await run("xclip", ["-selection", "clipboard", "-t", "TARGETS", "-o"]);
  if (listed.missing) return undefined;
  const type = listed.ok ? pickType(listed.stdout.toString("utf8")) : undefined;
  if (!type) return { ok: false, message: "the clipboard holds no image" };
  const got = await run("xclip", ["-selection", "clipboard", "-t", type, "-o"]);
  return got.ok ? sized({ mimeType: type, data: got.stdout, tool: "xclip" }) : { ok: false, message: "xclip could not read the clipboard" };
}

/** macOS: AppleScript gives the clipboard's PNG as `«data PNGf89504E47…»`. */
async function mac(run: ProgramRunner): Promise<ClipboardRead> {
  const got = await run("osascript", ["-e", "the clipboard as «class PNGf»"]);
  const hex = /\u00abdata PNGf([0-9A-Fa-f]+)\u00bb/.exec(got.stdout.toString("utf8"))?.[1];
  if (!got.ok || !hex) return { ok: false, message: "the clipboard holds no image" };
  return sized({ mimeType: "image/png", data: Buffer.from(hex, "hex"), tool: "osascript" });
}

/**
 * Reads an image from the system clipboard with the tool the platform has: `wl-paste` (Wayland),
 * `xclip` (X11), `osascript` (macOS). Says why not when there is no image, no tool, or no display
 * to reach the clipboard through (over SSH).
 */
export async function readClipboardImage(
  opts: { platform?: NodeJS.Platform; env?: NodeJS.ProcessEnv; run?: ProgramRunner } = {},
): Promise<ClipboardRead> {
  const platform = opts.platform ?? process.platform;
  const env = opts.env ?? process.env;
  const run = opts.run ?? runProgram;
  if (platform === "darwin") return mac(run);
  if (platform === "win32")
    return { ok: false, message: "reading images from the clipboard is not supported on Windows: attach the file with @path" };
  if (!env.WAYLAND_DISPLAY && !env.DISPLAY)
    return { ok: false, message: "no display to read the clipboard from (over SSH, attach the file with @path)" };
  if (env.WAYLAND_DISPLAY) {
    const read = await wayland(run);
    if (read) return read;
  }
  if (env.DISPLAY) {
    const read = await x11(run);
    if (read) return read;
  }
  return {
    ok: false,
    message: `no clipboard tool found: install ${env.WAYLAND_DISPLAY ? "wl-clipboard (wl-paste)" : "xclip"}, or attach the file with @path`,
  };
}
