import type { Token } from "marked";
import { colorsEnabled } from "./theme.js";
import { paint, role } from "./style.js";

/** Inline tokens (text, emphasis, code spans, links) as one styled string. */
export function inlineAnsi(tokens: Token[] | undefined): string {
  if (!tokens) return "";
  let out = "";
  for (const token of tokens) out += inlineToken(token);
  return out;
}

function inlineToken(token: Token): string {
  switch (token.type) {
    case "text":
      // Text inside tight list items carries its own inline tokens.
      return token.tokens && token.tokens.length > 0 ? inlineAnsi(token.tokens) : decodeEntities(token.text);
    case "escape":
      return decodeEntities(token.text);
    case "strong":
      return paint(inlineAnsi(token.tokens), { bold: true });
    case "em":
      return paint(inlineAnsi(token.tokens), { italic: true });
    case "del":
      return paint(inlineAnsi(token.tokens), { strike: true });
    case "codespan":
      // Without colour the backticks are the only thing that sets code apart.
      return role("code", colorsEnabled() ? decodeEntities(token.text) : `\`${decodeEntities(token.text)}\``);
    case "br":
      return "\n";
    case "link": {
      const label = inlinePlainText(token.tokens) || token.href;
      const showUrl = label !== token.href && !token.href.startsWith("mailto:");
      return (
        role("link", inlineAnsi(token.tokens) || token.href, { underline: true }) +
        (showUrl ? paint(` (${token.href})`, { dim: true }) : "")
      );
    }
    case "image":
      return paint(`[image${token.text ? `: ${token.text}` : ""}] (${token.href})`, { dim: true });
    case "html":
      return token.text;
    case "checkbox":
      return "";
    default:
      return "text" in token && typeof token.text === "string" ? token.text : token.raw;
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
