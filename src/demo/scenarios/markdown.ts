import type { Scenario } from "./scenario.js";

const THOUGHTS =
  "The user wants to see how Markdown renders while it streams. " +
  "I'll use headings, lists, emphasis, a link, a table and a code block, in small pieces.";

/** The answer `markdown` streams; exported so tests can check the chunks add up to it. */
export const MARKDOWN_ANSWER = `# Streaming Markdown

conch renders this answer **while it streams**, a few characters at a time.

## Lists and emphasis

- **bold** text, _italic_ text and \`inline code\`
- a link to [the Agent Client Protocol](https://agentclientprotocol.com)
- a nested list:
  - first
  - second

1. numbered lists
2. work too

## A table

| scenario | what it shows |
| --- | --- |
| markdown | streamed text and thoughts |
| edit | a diff and a permission request |
| run | a client terminal with colours |

## Code

\`\`\`ts
export function greet(name: string): string {
  return \`Hello, \${name}!\`;
}
\`\`\`

> That's all: the last block is the only one re-parsed while text arrives.
`;

/** `markdown`: a few thoughts, then a Markdown answer in many small chunks. */
export const markdownScenario: Scenario = {
  name: "markdown",
  keywords: ["markdown"],
  summary: "thoughts, then a streamed Markdown answer (headings, lists, a table, code)",
  async run(turn) {
    await turn.think(THOUGHTS);
    await turn.say(MARKDOWN_ANSWER);
  },
};
