import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "ink-testing-library";
import { Text, useInput, type Key } from "ink";
import { inkInputParser, inkKeyOf } from "../../../src/ui/tty/ink-keys.js";
import { tick } from "../fake-session.js";

afterEach(() => cleanup());

/** Reads as a terminal sends them: text, controls, legacy and modified arrows, Alt, paste marks, kitty keys. */
const READS = [
  "hello",
  "A",
  "\r",
  "\n",
  "\t",
  "\x1b[Z",
  "\x7f",
  "\b",
  "\x1b[3~",
  "\x01\x05\x0b\x15\x17",
  "\x1b[A\x1b[B\x1b[C\x1b[D",
  "\x1b[H\x1b[F\x1b[1~\x1b[4~",
  "\x1b[1;3D\x1b[1;5C\x1bb\x1bf",
  "\x1b\r",
  "\x1b",
  "\x1b[200~pasted\rtext\x1b[201~",
  "\x1b[97;5u\x1b[13;2u",
  "é中😀",
];

describe("the keys of a read, as Ink's useInput gives them", () => {
  it("are the same events, inputs and keys as Ink's own", async () => {
    const seen: { input: string; key: Key }[] = [];
    const Probe = () => {
      useInput((input, key) => void seen.push({ input, key }));
      return <Text>probe</Text>;
    };
    const view = render(<Probe />);
    await tick();
    const parser = inkInputParser();
    const ours: { input: string; key: Key }[] = [];
    for (const read of READS) {
      view.stdin.write(read);
      await tick(5);
      const events = parser.push(read);
      if (parser.hasPendingEscape()) events.push(parser.flushPendingEscape() ?? "");
      for (const event of events) {
        const { input, key } = inkKeyOf(event);
        ours.push({ input, key });
      }
    }
    await tick(30);
    expect(ours).toEqual(seen);
    expect(seen.length).toBeGreaterThan(READS.length);
  });
});
