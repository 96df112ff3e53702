import type { Key } from "ink";
// Ink's own parsers, the ones its App and `useInput` run: the instant editor reads keys exactly as
// the App's editor will. They are internal files of Ink (its `exports` hides them), plain modules
// with no React in them, so the first frame does not wait for Ink to load.
import { createInputParser, type InputParser } from "../../../node_modules/ink/build/input-parser.js";
import parseKeypress, { nonAlphanumericKeys } from "../../../node_modules/ink/build/parse-keypress.js";

/** One key as Ink's `useInput` hands it to a handler, with the bytes it came from. */
export interface InkKeyEvent {
  input: string;
  key: Key;
  raw: string;
}

/** Splits reads into key events as Ink's App does (one parser for the stream: a sequence cut by a read is joined). */
export function inkInputParser(): InputParser {
  return createInputParser();
}

/**
 * The `(input, key)` pair Ink's `useInput` makes of one input event (ink 6.8, build/hooks/use-input.js,
 * without its Ctrl-C exit, which conch turns off). test/ui/tty/ink-keys.test.ts holds it equal to Ink's.
 */
export function inkKeyOf(data: string): InkKeyEvent {
  const keypress = parseKeypress(data);
  const key: Key = {
    upArrow: keypress.name === "up",
    downArrow: keypress.name === "down",
    leftArrow: keypress.name === "left",
    rightArrow: keypress.name === "right",
    pageDown: keypress.name === "pagedown",
    pageUp: keypress.name === "pageup",
    home: keypress.name === "home",
    end: keypress.name === "end",
    return: keypress.name === "return",
    escape: keypress.name === "escape",
    ctrl: keypress.ctrl,
    shift: keypress.shift,
    tab: keypress.name === "tab",
    backspace: keypress.name === "backspace",
    delete: keypress.name === "delete",
    meta: keypress.meta || keypress.name === "escape" || keypress.option,
    super: keypress.super ?? false,
    hyper: keypress.hyper ?? false,
    capsLock: keypress.capsLock ?? false,
    numLock: keypress.numLock ?? false,
    eventType: keypress.eventType,
  };
  let input: string;
  if (keypress.isKittyProtocol) {
    if (keypress.isPrintable) input = keypress.text ?? keypress.name;
    else if (keypress.ctrl && keypress.name.length === 1) input = keypress.name;
    else input = "";
  } else if (keypress.ctrl) input = keypress.name;
  else input = keypress.sequence;
  if (!keypress.isKittyProtocol && nonAlphanumericKeys.includes(keypress.name)) input = "";
  if (input.startsWith("\u001B")) input = input.slice(1);
  if (input.length === 1 && /[A-Z]/.test(input[0])) key.shift = true;
  return { input, key, raw: data };
}
