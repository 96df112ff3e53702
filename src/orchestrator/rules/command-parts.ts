/**
 * One simple command of a shell line: its words as the shell would pass them (quotes removed).
 * `dynamic` says why the shell would compute part of it at run time (a variable, a command
 * substitution, a redirection): such a part never matches an allow rule, since what runs is not
 * what the words say.
 */
export interface CommandPart {
  words: string[];
  dynamic?: string;
  /** It runs inside a `$(…)` or backticks of another part. */
  nested?: boolean;
}

const SEPARATORS = new Set([";", "&", "|", "\n", "(", ")"]);
const BLANK = /[ \t\r]/;

/** The text from `open` (just after `$(`) to its matching `)`, quotes respected; -1 when it never closes. */
function closingParen(line: string, open: number): number {
  let depth = 1;
  for (let i = open; i < line.length; i++) {
    const c = line[i];
    if (c === "\\") i++;
    else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return -1;
}

/**
 * Splits a shell command line into its simple commands, at `;`, `&`, `&&`, `|`, `||`, newlines and
 * parentheses. Conservative by design: whatever the shell would expand or redirect marks its part
 * `dynamic`, and the commands inside `$(…)` and backticks come out as parts of their own
 * (`nested`), so a deny rule still sees them.
 */
export function splitCommand(line: string, opts: { keepGlobs?: boolean } = {}): CommandPart[] {
  const parts: CommandPart[] = [];
  // In a rule, a quoted or escaped `*` or `?` is that character, not a glob: it keeps a backslash.
  const lit = (s: string) => (opts.keepGlobs ? s.replace(/[*?\\]/g, "\\$&") : s);
  let words: string[] = [];
  let word = "";
  let inWord = false;
  let dynamic: string | undefined;
  const mark = (why: string) => (dynamic ??= why);
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endPart = () => {
    endWord();
    if (words.length) parts.push(dynamic ? { words, dynamic } : { words });
    else if (dynamic && parts.length === 0) parts.push({ words: [], dynamic });
    words = [];
    dynamic = undefined;
  };
  const nested = (inner: string) => {
    for (const p of splitCommand(inner)) parts.push({ ...p, nested: true });
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "\\") {
      if (line[i + 1] === "\n") i++;
      else if (i + 1 < line.length) {
        word += lit(line[++i]);
        inWord = true;
      }
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) {
        mark("it has an unclosed quote");
        word += lit(line.slice(i + 1));
        inWord = true;
        break;
      }
      word += lit(line.slice(i + 1, end));
      inWord = true;
      i = end;
    } else if (c === '"') {
      inWord = true;
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        const d = line[j];
        if (d === "\\" && j + 1 < line.length && '"\\$`\n'.includes(line[j + 1])) word += lit(line[++j]);
        else if (d === "$" || d === "`") {
          mark("it expands `$` or backticks inside quotes");
          if (line.startsWith("$(", j)) {
            const close = closingParen(line, j + 2);
            if (close > 0) nested(line.slice(j + 2, close));
          } else if (d === "`") {
            const close = line.indexOf("`", j + 1);
            if (close > 0) nested(line.slice(j + 1, close));
          }
          word += d;
        } else word += lit(d);
      }
      if (j >= line.length) mark("it has an unclosed quote");
      i = j;
    } else if (c === "$") {
      inWord = true;
      if (line.startsWith("$(", i) && !line.startsWith("$((", i)) {
        mark("it runs a command substitution `$(…)`");
        const close = closingParen(line, i + 2);
        if (close < 0) {
          mark("it has an unclosed `$(`");
          nested(line.slice(i + 2));
          break;
        }
        nested(line.slice(i + 2, close));
        word += line.slice(i, close + 1);
        i = close;
      } else {
        mark("it expands a variable or an expression (`$`)");
        word += c;
      }
    } else if (c === "`") {
      mark("it runs a command substitution (backticks)");
      const close = line.indexOf("`", i + 1);
      nested(line.slice(i + 1, close < 0 ? undefined : close));
      if (close < 0) break;
      word += line.slice(i, close + 1);
      inWord = true;
      i = close;
    } else if (c === "<" || c === ">") {
      mark("it redirects input or output");
      endWord();
    } else if (c === "#" && !inWord) {
      const nl = line.indexOf("\n", i);
      if (nl < 0) break;
      i = nl - 1;
    } else if (SEPARATORS.has(c)) {
      endPart();
    } else if (BLANK.test(c)) {
      endWord();
    } else {
      word += c;
      inWord = true;
    }
  }
  endPart();
  return parts;
}

/** Shell words that only start a construct or wrap a command: what runs is the command after them. */
const PREFIXES = new Set([
  "if",
  "then",
  "else",
  "elif",
  "do",
  "while",
  "until",
  "!",
  "time",
  "{",
  "exec",
  "command",
  "builtin",
  "nohup",
  "sudo",
  "doas",
  "env",
  "xargs",
  "nice",
]);
const SHELLS = /(^|\/)(ba|z|da|k|fi)?sh$/;

/**
 * What a part may run, for deny and ask rules: its words, then the same after leading wrappers
 * (`sudo`, `env`, `then`, `X=1`, …), and the script of a `sh -c`. Deny looks wide; allow never does.
 */
export function commandsWithin(part: CommandPart): string[][] {
  const out: string[][] = [part.words];
  let words = part.words;
  for (let i = 0; i < 8; i++) {
    let k = 0;
    while (k < words.length && (PREFIXES.has(words[k]) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k]) || (k > 0 && words[k].startsWith("-"))))
      k++;
    if (k === 0 || k >= words.length) break;
    words = words.slice(k);
    out.push(words);
  }
  for (const w of [...out]) {
    const c = w.findIndex((x) => /^-\w*c$/.test(x));
    if (SHELLS.test(w[0] ?? "") && c > 0 && w[c + 1] !== undefined) {
      for (const inner of splitCommand(w[c + 1])) out.push(...commandsWithin(inner));
    }
  }
  return out;
}
