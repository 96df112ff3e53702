import type { ContentBlock } from "@agentclientprotocol/sdk";

/** The text a content block contributes to a transcript; non-text blocks become a short marker. */
export function contentText(block: ContentBlock | undefined): string {
  if (!block || typeof block !== "object") return "";
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "image":
      return `[image ${block.mimeType ?? ""}]`.replace(" ]", "]");
    case "audio":
      return `[audio ${block.mimeType ?? ""}]`.replace(" ]", "]");
    case "resource_link":
      return `[${block.name || block.uri}](${block.uri})`;
    case "resource": {
      const r = block.resource as { uri?: string; text?: string };
      return typeof r.text === "string" ? r.text : `[resource ${r.uri ?? ""}]`;
    }
    default:
      return "";
  }
}
