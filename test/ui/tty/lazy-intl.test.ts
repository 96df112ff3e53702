import { describe, expect, it } from "vitest";
import { lazyRegExp, lazySegmenter } from "../../../src/ui/tty/lazy-intl.js";
import { rng } from "../../support/seeded-random.js";

const real = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const plain = (segments: Iterable<Intl.SegmentData>) => [...segments].map(({ segment, index, input }) => ({ segment, index, input }));

/** ASCII text as a terminal library meets it: words, escapes, controls, and CR, LF and CR LF in every order. */
function asciiText(seed: number): string {
  const r = rng(seed);
  const pieces = ["ab", " ", "\x1b[1;36m", "\x1b[0m", "\r", "\n", "\r\n", "\n\r", "\t", "\x00", "\x7f", "~{}", "\x1b]8;;x\x07"];
  return Array.from({ length: r.int(0, 30) }, () => r.pick(pieces)).join("");
}

describe("the Intl stand-ins Ink's text libraries get in the bundle", () => {
  it("cut ASCII into the graphemes Intl.Segmenter gives, CR LF as one", () => {
    const lazy = lazySegmenter(undefined, { granularity: "grapheme" });
    for (let seed = 1; seed <= 300; seed++) {
      const text = asciiText(seed);
      expect(plain(lazy.segment(text))).toEqual(plain(real.segment(text)));
      const ours = lazy.segment(text);
      const theirs = real.segment(text);
      for (let i = -1; i <= text.length + 1; i++) {
        const want = theirs.containing(i);
        expect(ours.containing(i)).toEqual(want && { segment: want.segment, index: want.index, input: want.input });
      }
    }
  });

  it("hand any other text to Intl.Segmenter", () => {
    const lazy = lazySegmenter();
    for (const text of ["héllo", "e\u0301x", "👍🏽 ok", "漢字\r\n한글", "a\u200db", "🇫🇷"]) {
      expect(plain(lazy.segment(text))).toEqual(plain(real.segment(text)));
      expect(lazy.segment(text).containing(1)?.segment).toBe(real.segment(text).containing(1)?.segment);
    }
  });

  it("refuses a granularity other than graphemes", () => {
    expect(() => lazySegmenter(undefined, { granularity: "word" })).toThrow(/graphemes/);
  });

  it("test as the expression they stand for", () => {
    const emoji = lazyRegExp("^\\p{RGI_Emoji}$", "v");
    const want = new RegExp("^\\p{RGI_Emoji}$", "v");
    for (const text of ["👍", "👍🏽", "🇫🇷", "a", "✓", "☺", "☺️", "👨‍👩‍👧"]) expect(emoji.test(text)).toBe(want.test(text));
  });
});
