import { keyTableMarkdown } from "../ui/shell/key-bindings.js";

/** The README's generated sections, by marker name. */
export function generatedSections(): Record<string, string> {
  return { keys: keyTableMarkdown() };
}

/** The text with each `<!-- generated:NAME -->…<!-- /generated:NAME -->` section replaced by its content. */
export function applySections(text: string, sections: Record<string, string>): string {
  let out = text;
  for (const [name, content] of Object.entries(sections)) {
    const re = new RegExp(`(<!-- generated:${name} -->)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    out = out.replace(re, (_m, open: string, close: string) => `${open}\n${content}\n${close}`);
  }
  return out;
}
