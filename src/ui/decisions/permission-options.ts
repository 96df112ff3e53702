import type { PermissionOption, PermissionOptionKind } from "@agentclientprotocol/sdk";

/** The conventional letter for the first option of each kind. */
const KIND_LETTERS: Record<PermissionOptionKind, string> = {
  allow_once: "y",
  allow_always: "a",
  reject_once: "n",
  reject_always: "r",
};

/** Keys that answer with one option: its number (1-9) and, for the first option of its kind, a letter. */
export interface OptionKeys {
  digit?: string;
  letter?: string;
}

/** The keys of each option, in order. */
export function optionKeys(options: PermissionOption[]): OptionKeys[] {
  const taken = new Set<string>();
  return options.map((option, i) => {
    const keys: OptionKeys = {};
    if (i < 9) keys.digit = String(i + 1);
    const letter = KIND_LETTERS[option.kind];
    if (letter && !taken.has(letter)) {
      taken.add(letter);
      keys.letter = letter;
    }
    return keys;
  });
}

/** The option a typed key stands for, or -1. */
export function optionForKey(options: PermissionOption[], input: string): number {
  const key = input.toLowerCase();
  if (key.length !== 1) return -1;
  return optionKeys(options).findIndex((k) => k.digit === key || k.letter === key);
}

/** Where the cursor starts: on the first one-time allow, so Enter never grants more than asked. */
export function defaultOption(options: PermissionOption[]): number {
  const once = options.findIndex((o) => o.kind === "allow_once");
  return once >= 0 ? once : 0;
}
