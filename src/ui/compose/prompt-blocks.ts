import type { ContentBlock } from "@agentclientprotocol/sdk";
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** Images bigger than this go as a link even to an agent that takes images: base64 in JSON-RPC gets heavy. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** A prompt ready for `session/prompt`, and what the user should be told about its attachments. */
export interface BuiltPrompt {
  /** Null when the text mentions no file: the plain text is the whole prompt. */
  blocks: ContentBlock[] | null;
  notes: string[];
}

/** An image pasted into the input: its label stands in the text where it was pasted. */
export interface PastedImage {
  /** `[image 1]`: the image goes with the message while its label is in the text. */
  label: string;
  mimeType: string;
  /** Base64. */
  data: string;
}

export interface PromptContext {
  cwd: string;
  /** The agent said it accepts image blocks (`promptCapabilities.image`). */
  images: boolean;
  /** Images pasted from the clipboard (only offered when the agent takes images). */
  pasted?: readonly PastedImage[];
  /** Outputs of the user's own commands, each attached while its label is in the text. */
  outputs?: readonly { label: string; text: string }[];
  /** The agent takes embedded resources (`promptCapabilities.embeddedContext`): outputs go as text resources. */
  embedded?: boolean;
  /** For tests: how to look at files. */
  fs?: { stat(p: string): { isFile(): boolean; size: number } | undefined; read(p: string): Buffer };
}

const realFs = {
  stat(p: string) {
    try {
      return statSync(p);
    } catch {
      return undefined;
    }
  },
  read: (p: string) => readFileSync(p),
};

function resolvePath(raw: string, cwd: string): string {
  if (raw === "~" || raw.startsWith("~/")) return path.join(homedir(), raw.slice(1));
  return path.resolve(cwd, raw);
}

/** A fenced block that no line of `text` closes early. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = "`".repeat(longest + 1);
  return `${marks}\n${text}\n${marks}`;
}

/** `@path` words in the text, in order, without repeats. Trailing punctuation is tried off too ("see @a.ts,"). */
export function mentionedPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\s)@(\S+)/g)) if (!out.includes(m[1])) out.push(m[1]);
  return out;
}

/**
 * Turns `@path` mentions of existing files into content blocks after the text: an image the agent
 * can take becomes an `image` block, anything else a `resource_link` the agent can read itself.
 * Pasted images whose label is still in the text follow as `image` blocks.
 */
export function buildPrompt(text: string, ctx: PromptContext): BuiltPrompt {
  const fs = ctx.fs ?? realFs;
  const attachments: ContentBlock[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const word of mentionedPaths(text)) {
    const candidates = [word, word.replace(/[),.;:!?'"\]]+$/, "")].filter((c, i, all) => c && all.indexOf(c) === i);
    for (const candidate of candidates) {
      const abs = resolvePath(candidate, ctx.cwd);
      const stat = fs.stat(abs);
      if (!stat) continue;
      if (seen.has(abs)) break;
      seen.add(abs);
      const name = path.basename(abs);
      const uri = pathToFileURL(abs).href;
      const mimeType = stat.isFile() ? IMAGE_TYPES[path.extname(abs).toLowerCase()] : undefined;
      if (mimeType && ctx.images && stat.size <= MAX_IMAGE_BYTES) {
        attachments.push({ type: "image", mimeType, data: fs.read(abs).toString("base64"), uri });
        notes.push(`@${candidate}: attached as an image`);
      } else {
        attachments.push({ type: "resource_link", uri, name });
        if (mimeType) {
          notes.push(`@${candidate}: sent as a link, ${ctx.images ? "too big to attach" : "the agent does not accept images"}`);
        } else {
          notes.push(`@${candidate}: sent as a link`);
        }
      }
      break;
    }
  }
  for (const image of ctx.pasted ?? []) {
    if (!text.includes(image.label)) continue;
    attachments.push({ type: "image", mimeType: image.mimeType, data: image.data });
    notes.push(`${image.label}: attached as an image`);
  }
  for (const output of ctx.outputs ?? []) {
    if (!text.includes(output.label)) continue;
    attachments.push(
      ctx.embedded
        ? {
            type: "resource",
            resource: { uri: `conch:output/${encodeURIComponent(output.label)}`, mimeType: "text/plain", text: output.text },
          }
        : { type: "text", text: `\n\n${output.label}:\n${fence(output.text)}` },
    );
    notes.push(`${output.label}: attached (${output.text.split("\n").length} lines)`);
  }
  if (attachments.length === 0) return { blocks: null, notes };
  return { blocks: [{ type: "text", text }, ...attachments], notes };
}
