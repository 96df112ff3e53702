import React from "react";
import { Text } from "ink";
import type { Token } from "marked";
import { color, colorsEnabled } from "./theme.js";

/** Renders inline tokens (text, emphasis, code spans, links) as nested Ink `<Text>`. */
export function renderInline(tokens: Token[] | undefined, keyPrefix = "i"): React.ReactNode[] {
  if (!tokens) return [];
  return tokens.map((token, i) => renderInlineToken(token, `${keyPrefix}${i}`));
}

function renderInlineToken(token: Token, key: string): React.ReactNode {
  switch (token.type) {
    case "text":
      // Text inside tight list items carries its own inline tokens.
      return token.tokens && token.tokens.length > 0 ? (
        <Text key={key}>{renderInline(token.tokens, key)}</Text>
      ) : (
        <Text key={key}>{decodeEntities(token.text)}</Text>
      );
    case "escape":
      return <Text key={key}>{decodeEntities(token.text)}</Text>;
    case "strong":
      return (
        <Text key={key} bold>
          {renderInline(token.tokens, key)}
        </Text>
      );
    case "em":
      return (
        <Text key={key} italic>
          {renderInline(token.tokens, key)}
        </Text>
      );
    case "del":
      return (
        <Text key={key} strikethrough>
          {renderInline(token.tokens, key)}
        </Text>
      );
    case "codespan":
      // Without colour the backticks are the only thing that sets code apart.
      return (
        <Text key={key} color={color("code")}>
          {colorsEnabled() ? token.text : `\`${token.text}\``}
        </Text>
      );
    case "br":
      return <Text key={key}>{"\n"}</Text>;
    case "link": {
      const label = inlinePlainText(token.tokens) || token.href;
      const showUrl = label !== token.href && !token.href.startsWith("mailto:");
      return (
        <Text key={key}>
          <Text color={color("link")} underline>
            {renderInline(token.tokens, key)}
          </Text>
          {showUrl ? <Text dimColor>{` (${token.href})`}</Text> : null}
        </Text>
      );
    }
    case "image":
      return (
        <Text key={key} dimColor>
          {`[image${token.text ? `: ${token.text}` : ""}] (${token.href})`}
        </Text>
      );
    case "html":
      return <Text key={key}>{token.text}</Text>;
    case "checkbox":
      return null;
    default:
      return <Text key={key}>{"text" in token && typeof token.text === "string" ? token.text : token.raw}</Text>;
  }
}

/** Inline tokens as plain text, for measuring (table columns) and labels. */
export function inlinePlainText(tokens: Token[] | undefined): string {
  if (!tokens) return "";
  let out = "";
  for (const token of tokens) {
    switch (token.type) {
      case "text":
        out += token.tokens && token.tokens.length > 0 ? inlinePlainText(token.tokens) : decodeEntities(token.text);
        break;
      case "escape":
        out += decodeEntities(token.text);
        break;
      case "strong":
      case "em":
      case "del":
        out += inlinePlainText(token.tokens);
        break;
      case "link": {
        const label = inlinePlainText(token.tokens) || token.href;
        out += label !== token.href && !token.href.startsWith("mailto:") ? `${label} (${token.href})` : label;
        break;
      }
      case "codespan":
        out += colorsEnabled() ? token.text : `\`${token.text}\``;
        break;
      case "br":
        out += "\n";
        break;
      case "image":
        out += `[image${token.text ? `: ${token.text}` : ""}] (${token.href})`;
        break;
      case "checkbox":
        break;
      default:
        out += "text" in token && typeof token.text === "string" ? token.text : token.raw;
    }
  }
  return out;
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Marked leaves entity references for an HTML renderer to resolve; a terminal has to do it itself. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body[0] === "#") {
      const cp = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}
