import type { ContentBlock } from "@agentclientprotocol/sdk";

/** The prompt's text blocks joined: what scenario keywords are matched against. */
export function promptText(prompt: readonly ContentBlock[]): string {
  return prompt
    .filter((block): block is Extract<ContentBlock, { type: "text" }> => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

/**
 * One sentence acknowledging the non-text blocks (images, embedded files,
 * links), so a person can see that attachments reached the agent; `undefined`
 * when the prompt is text only.
 */
export function describeAttachments(prompt: readonly ContentBlock[]): string | undefined {
  const parts: string[] = [];
  for (const block of prompt) {
    switch (block.type) {
      case "image":
        parts.push(`an image (${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes)`);
        break;
      case "audio":
        parts.push(`audio (${block.mimeType})`);
        break;
      case "resource":
        parts.push(`the file ${block.resource.uri}`);
        break;
      case "resource_link":
        parts.push(`a link to ${block.uri}`);
        break;
      case "text":
        break;
    }
  }
  return parts.length > 0 ? `I received ${parts.join(", ")}.\n\n` : undefined;
}
