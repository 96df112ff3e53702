// Ink's text libraries (string-width, slice-ansi, @alcalzone/ansi-tokenize) each build an
// Intl.Segmenter, and string-width an RGI_Emoji expression, when their module loads. The first
// segmenter loads ICU's break rules (~20-55 ms here) and the expression builds a set of every emoji
// sequence (~35 ms): both inside the one long task that loads the UI's modules, while keys wait.
// The bundle (scripts/bundle.mjs) gives them these instead, built on first use; a string of ASCII
// characters is cut into graphemes without ICU.

/** What the libraries use of an Intl.Segmenter's result: iteration and `containing`. */
export interface GraphemeSegments extends Iterable<Intl.SegmentData> {
  containing(index?: number): Intl.SegmentData | undefined;
}

/** What the libraries use of an Intl.Segmenter. */
export interface LazySegmenter {
  segment(input: string): GraphemeSegments;
}

/** ASCII without a CR LF pair: every character is a grapheme of its own (UAX #29: only CR LF joins ASCII characters). */
const SINGLE_ASCII = /^(?:[\x00-\x0c\x0e-\x7f]|\r(?!\n))*$/;

/** An ASCII string's graphemes, one per character, as Intl.Segmenter gives them. */
function asciiSegments(input: string): GraphemeSegments {
  const at = (index: number): Intl.SegmentData => ({ segment: input[index], index, input });
  return {
    *[Symbol.iterator]() {
      for (let i = 0; i < input.length; i++) yield at(i);
    },
    containing(index = 0) {
      const i = Math.trunc(Number(index));
      return i >= 0 && i < input.length ? at(i) : undefined;
    },
  };
}

/** `new Intl.Segmenter(locales, options)` for graphemes, made the first time a non-ASCII string is segmented. */
export function lazySegmenter(locales?: string | string[], options?: Intl.SegmenterOptions): LazySegmenter {
  if (options?.granularity !== undefined && options.granularity !== "grapheme")
    throw new Error(`lazySegmenter: only graphemes are cut without ICU, not ${options.granularity}`);
  let real: Intl.Segmenter | undefined;
  return {
    segment: (input) => (SINGLE_ASCII.test(input) ? asciiSegments(input) : (real ??= new Intl.Segmenter(locales, options)).segment(input)),
  };
}

/** `new RegExp(source, flags)`, built when first tested (the libraries only call `test`). */
export function lazyRegExp(source: string, flags: string): Pick<RegExp, "test"> {
  let real: RegExp | undefined;
  return { test: (text) => (real ??= new RegExp(source, flags)).test(text) };
}
