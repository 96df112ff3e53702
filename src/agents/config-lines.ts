import { findNodeAtLocation, parseTree, printParseErrorCode, type ParseError } from "jsonc-parser";

/** 1-based line and column of a character offset. */
function lineCol(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split("\n").length;
  return { line, col: offset - before.lastIndexOf("\n") };
}

/**
 * Where a JSON text fails to parse, as `line L, column C: why`, or undefined when it parses.
 * JSON.parse's own message names a character offset at best; a person looks for a line.
 */
export function jsonSyntaxError(text: string): string | undefined {
  const errors: ParseError[] = [];
  parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  const first = errors[0];
  if (!first) return undefined;
  const { line, col } = lineCol(text, first.offset);
  return `line ${line}, column ${col}: ${printParseErrorCode(first.error)}`;
}

/** Finds the lines of values in one JSON text by their path (`["rules", "allow", 2]`). */
export class JsonLines {
  private readonly root: ReturnType<typeof parseTree>;

  constructor(private readonly text: string) {
    this.root = parseTree(text);
  }

  /** The line of the value at `path`, or of its nearest parent that exists. */
  lineOf(path: (string | number)[]): number | undefined {
    if (!this.root) return undefined;
    for (let n = path.length; n >= 0; n--) {
      const node = findNodeAtLocation(this.root, path.slice(0, n));
      if (node) return lineCol(this.text, node.offset).line;
    }
    return undefined;
  }
}
