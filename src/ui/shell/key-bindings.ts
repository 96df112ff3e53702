// The key table: every key conch takes, where, what it does and how it is hinted. /help, the status
// line's hints, the README's key table and every footer are made from it, and every view asks it
// which command a key is.
//
// A new view that takes keys (a picker, a list):
// 1. its place: a `Focus` in keys.ts, and where it gets the keys in `focusOf` (shell-state.ts);
// 2. its keys: bindings in view-keys.ts with `where: [place]`, a `match` and a `hint`;
// 3. its handler: `useKeypress((input, key, raw) => { switch (commandFor(place, input, key, raw))
//    { ... return true } return false }, { isActive: focus === place })` (hooks/use-keypress.tsx);
//    an answer it sends goes through `useAnswerOnce` (hooks/use-answer-once.ts);
// 4. its footer: `footer([...its commands])`; then `npm run docs` for the README.
// Ctrl-C and the shell's own commands (`shell: true`) reach the shell first, wherever the keys are
// but in a focused terminal pane, whose program takes them all.

import type { Key } from "ink";
import { INPUT_KEYS } from "./input-keys.js";
import type { Focus, KeyBinding, KeyCommand, KeyPlace } from "./keys.js";
import { VIEW_KEYS } from "./view-keys.js";

export type { Focus, KeyBinding, KeyCommand, KeyPlace } from "./keys.js";

/** Every key conch uses, in the order /help and the README list them. */
export const KEY_BINDINGS: readonly KeyBinding[] = [...INPUT_KEYS, ...VIEW_KEYS];

/** The binding of a command. */
export function binding(command: KeyCommand): KeyBinding {
  const found = KEY_BINDINGS.find((b) => b.command === command);
  if (!found) throw new Error(`no key binding for ${command}`);
  return found;
}

/** The command a key event is in `place`, by the table's matchers; undefined when no binding there matches it. */
export function commandFor(place: KeyPlace, input: string, key: Key, raw: string): KeyCommand | undefined {
  return KEY_BINDINGS.find((b) => b.match && b.where.includes(place) && b.match(input, key, raw))?.command;
}

/** The shell's command a key event is, where `focus` has the keys; undefined when the view that has them decides. */
export function shellCommandFor(focus: Focus, input: string, key: Key, raw: string): KeyCommand | undefined {
  const command = commandFor(focus, input, key, raw);
  return command && binding(command).shell ? command : undefined;
}

/**
 * How a hint writes a binding's keys: its `short`, or the first of its keys ("esc", "↑↓",
 * "enter/e"); `which` picks some of its keys by position, as in "y / n, Esc" [1, 2]: "n or esc".
 */
export function shortKeys(command: KeyCommand, which?: readonly number[]): string {
  const b = binding(command);
  const names = b.keys.split(/\s*,\s*|\s+\/\s+/).map((k) => k.toLowerCase());
  if (which) return which.map((i) => names[i]).join(" or ");
  return b.short ?? names[0];
}

/** The status line's hint for a command: "esc to cancel". */
export function hintFor(command: KeyCommand): string {
  const b = binding(command);
  return `${shortKeys(command)} ${b.hint ?? b.does}`;
}

/** One part of a footer: a command (its keys and hint), or its keys (some of them) with a view's own words. */
export type FooterPart = KeyCommand | readonly [KeyCommand, string, (readonly number[])?];

/**
 * A footer: each command's keys and hint, "↑↓ choose · enter/e edit · esc back". A view that says
 * what a key does in its own words passes `[command, words]`; the keys still come from the table.
 * Neighbours that say the same words share them: "tab/enter complete", "↑↓ hits" (arrows run together).
 */
export function footer(parts: readonly FooterPart[]): string {
  const said: { keys: string; words: string }[] = [];
  for (const p of parts) {
    const [command, words, which] = typeof p === "string" ? [p, binding(p).hint ?? binding(p).does] : p;
    const keys = shortKeys(command, which);
    const last = said.at(-1);
    if (last?.words === words) last.keys += /^[\u2190-\u2193]+$/.test(last.keys + keys) ? keys : `/${keys}`;
    else said.push({ keys, words });
  }
  return said.map((s) => `${s.keys} ${s.words}`).join(" · ");
}

const PLACE: Record<KeyPlace, string> = {
  input: "",
  menu: "the `/` or `@` menu",
  queue: "the queue",
  permission: "a permission prompt",
  question: "a question",
  auth: "a login",
  terminal: "a terminal pane",
  undo: "the undo prompt",
  search: "the search",
  tasks: "the tasks view",
  picker: "the /model or /config list",
  attach: "`conch attach`",
};

/** Where a binding works, in words, when it is not (only) the input. */
function placeOf(b: KeyBinding): string {
  if (b.where.includes("input")) return "";
  return ` (in ${b.where.map((f) => PLACE[f]).join(", ")})`;
}

/** The keys as /help lists them. */
export function keyHelpLines(): string[] {
  return KEY_BINDINGS.map((b) => `${b.keys.replace(/`/g, "")} · ${b.does}${placeOf(b).replace(/`/g, "")}`);
}

/** The keys as the README's table: generated, so the README never drifts from the code. */
export function keyTableMarkdown(): string {
  const rows = KEY_BINDINGS.map((b) => `| ${b.keys} | ${b.does}${placeOf(b)} |`);
  return ["| key | does |", "| --- | --- |", ...rows].join("\n");
}
