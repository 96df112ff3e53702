import { commandsWithin, splitCommand, type CommandPart } from "./command-parts.js";

/** What a rule says about the calls it matches. `deny` wins over `ask`, which wins over `allow`. */
export type RuleVerdict = "allow" | "ask" | "deny";

export const RULE_VERDICTS: readonly RuleVerdict[] = ["deny", "ask", "allow"];

/** The ACP tool kinds a rule can name. */
export const RULE_KINDS = ["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"] as const;

/** Where a rule was written: the user's config, a project's `.conch.json`, or conch's record of an "always allow". */
export interface RuleOrigin {
  layer: "user" | "project" | "remembered";
  file: string;
  /** The line of the file the rule is on, when known. */
  line?: number;
}

/** A command pattern: the words of one simple command (`*` in a word is a glob; a last word `*` takes any further words), or one exact command line. */
type CommandPattern = { type: "argv"; words: RegExp[]; rest: boolean } | { type: "line"; line: string };

/** One parsed rule. `text` is the rule as written, which is how it is shown. */
export interface PermissionRule {
  verdict: RuleVerdict;
  kind: string;
  text: string;
  origin: RuleOrigin;
  command?: CommandPattern;
  /** A path glob: relative ones are against the workspace; `~/` is the home folder. */
  path?: string;
}

/** What a rule decides about a call, once its command and paths are known (symlinks resolved). */
export interface CallFacts {
  kind: string;
  /** The command an execute call runs, as the agent's profile extracts it. */
  command?: string;
  /** The paths the call names: as given, and real (symlinks resolved). */
  paths: { given: string; real: string }[];
  /** The workspace's real path. */
  root: string;
  home: string;
}

/** The decision of the rules about one call, and the rules that made it. */
export interface RuleDecision {
  verdict: RuleVerdict;
  rules: PermissionRule[];
}

const escapeRe = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** A word glob as a regular expression: `*` and `?` match anything; `\x` is x itself. */
function globWord(word: string): RegExp {
  let re = "";
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (c === "\\" && i + 1 < word.length) re += escapeRe(word[++i]);
    else if (c === "*") re += "[\\s\\S]*";
    else if (c === "?") re += "[\\s\\S]";
    else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`);
}

/** A path glob as a regular expression: `**` crosses folders, `*` and `?` stay within one; `\x` is x itself. */
function globPath(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\" && i + 1 < glob.length) re += escapeRe(glob[++i]);
    else if (c === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      re += slash ? "(?:[\\s\\S]*/)?" : "[\\s\\S]*";
      i += slash ? 2 : 1;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`);
}

/**
 * Parses one rule as written: `kind` (every call of that ACP tool kind), `execute(<command>)` or
 * `<kind>(<path glob>)`. A rule that does not parse is an error string for the person: it never
 * allows anything.
 */
export function parseRule(text: string, verdict: RuleVerdict, origin: RuleOrigin): PermissionRule | string {
  const m = /^\s*([a-z_]+)\s*(?:\(([\s\S]*)\))?\s*$/.exec(text);
  if (!m)
    return `"${text}" is not a rule: write a tool kind, optionally with a command or path in parentheses, e.g. execute(npm test) or edit(src/**)`;
  const kind = m[1];
  if (!(RULE_KINDS as readonly string[]).includes(kind)) return `"${kind}" is not a tool kind (one of ${RULE_KINDS.join(", ")})`;
  const rule: PermissionRule = { verdict, kind, text: text.trim(), origin };
  const inner = m[2]?.trim();
  if (m[2] === undefined) return rule;
  if (!inner) return `"${text}" has nothing in its parentheses: leave them out to mean every ${kind} call`;
  if (kind === "execute") {
    const parts = splitCommand(inner, { keepGlobs: true });
    if (parts.length === 1 && !parts[0].dynamic && !parts[0].nested) {
      const words = parts[0].words;
      const rest = words.length > 1 && words[words.length - 1] === "*";
      rule.command = { type: "argv", words: (rest ? words.slice(0, -1) : words).map(globWord), rest };
    } else rule.command = { type: "line", line: inner };
    return rule;
  }
  rule.path = inner;
  return rule;
}

function matchesArgv(p: Extract<CommandPattern, { type: "argv" }>, words: string[]): boolean {
  if (words.length < p.words.length || (!p.rest && words.length !== p.words.length)) return false;
  return p.words.every((re, i) => re.test(words[i]));
}

/** Whether a path (absolute) falls under a rule's glob: the glob itself, or anything under a folder it names. */
function matchesPath(glob: string, path: string, facts: CallFacts): boolean {
  let abs = glob;
  if (glob === "~" || glob.startsWith("~/")) abs = facts.home + glob.slice(1);
  else if (!glob.startsWith("/")) abs = `${facts.root}/${glob.replace(/^\.\//, "")}`;
  abs = abs.replace(/\/+$/, "") || "/";
  return globPath(abs).test(path) || globPath(`${abs}/**`).test(path);
}

/** Any part of the call falls under the rule: enough for deny and ask. */
function touches(rule: PermissionRule, facts: CallFacts, parts: CommandPart[]): boolean {
  if (rule.kind !== facts.kind) return false;
  const cmd = rule.command;
  if (cmd) {
    if (facts.command === undefined) return false;
    if (cmd.type === "line") return facts.command.trim() === cmd.line || parts.some((p) => p.words.join(" ") === cmd.line);
    return parts.some((p) => commandsWithin(p).some((w) => matchesArgv(cmd, w)));
  }
  if (rule.path !== undefined)
    return facts.paths.some((p) => matchesPath(rule.path!, p.given, facts) || matchesPath(rule.path!, p.real, facts));
  return true;
}

/** The allow rules that together cover every part of the call, or undefined when some part is left. */
function covered(allows: PermissionRule[], facts: CallFacts, parts: CommandPart[]): PermissionRule[] | undefined {
  const mine = allows.filter((r) => r.kind === facts.kind);
  const whole = mine.find((r) => !r.command && r.path === undefined);
  if (whole) return [whole];
  const used = new Set<PermissionRule>();
  if (facts.kind === "execute") {
    if (facts.command === undefined) return undefined;
    const line = mine.find((r) => r.command?.type === "line" && r.command.line === facts.command!.trim());
    if (line) return [line];
    if (parts.length === 0) return undefined;
    for (const part of parts) {
      if (part.dynamic || part.nested) return undefined;
      const rule = mine.find((r) => r.command?.type === "argv" && matchesArgv(r.command, part.words));
      if (!rule) return undefined;
      used.add(rule);
    }
    return [...used];
  }
  if (facts.paths.length === 0) return undefined;
  for (const p of facts.paths) {
    // What is written is the real file: the rule must cover where a symlink leads, not only its name.
    const rule = mine.find((r) => r.path !== undefined && matchesPath(r.path, p.real, facts));
    if (!rule) return undefined;
    used.add(rule);
  }
  return [...used];
}

/**
 * The rules' decision about one call, or undefined when none speaks to it. A deny rule that
 * touches any part of the call (any command of a compound line, any path) denies it; so an ask
 * rule asks; an allow holds only when every command of the line and every path is allowed, and a
 * command the shell would compute (`$()`, variables, redirections) is never allowed by a prefix.
 */
export function decideByRules(rules: readonly PermissionRule[], facts: CallFacts): RuleDecision | undefined {
  const parts = facts.command === undefined ? [] : splitCommand(facts.command);
  for (const verdict of ["deny", "ask"] as const) {
    const hit = rules.find((r) => r.verdict === verdict && touches(r, facts, parts));
    if (hit) return { verdict, rules: [hit] };
  }
  const allowed = covered(
    rules.filter((r) => r.verdict === "allow"),
    facts,
    parts,
  );
  return allowed ? { verdict: "allow", rules: allowed } : undefined;
}

/** How a rule's origin reads for a person: "in .conch.json", "in your config", "remembered for this project". */
export function originLabel(origin: RuleOrigin): string {
  const where = origin.line ? `${origin.file}:${origin.line}` : origin.file;
  if (origin.layer === "remembered") return `remembered for this project (${where})`;
  return `in ${where}`;
}

/** A word as a rule writes it: quoted when the shell (or the rule's globs) would read it otherwise. */
function ruleWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** A path as a rule writes it: relative to the workspace when inside it, globs escaped. */
function rulePath(path: string, root: string): string {
  const rel = path === root ? "." : path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
  return rel.replace(/[\\*?()]/g, "\\$&");
}

/**
 * The narrowest rule that allows this call again (what "always allow" remembers): this command
 * line exactly, or these files for this kind of call, or the kind when the call names neither.
 * A string says why nothing narrow enough can be written.
 */
export function narrowestAllow(facts: CallFacts): string[] | string {
  if (facts.kind === "execute") {
    const line = facts.command?.trim();
    if (!line) return "the agent did not say which command it runs";
    const parts = splitCommand(line);
    const plain = parts.length === 1 && !parts[0].dynamic && !parts[0].nested;
    return [`execute(${plain ? parts[0].words.map(ruleWord).join(" ") : line})`];
  }
  if (facts.paths.length > 0) return [...new Set(facts.paths.map((p) => `${facts.kind}(${rulePath(p.real, facts.root)})`))];
  if (facts.kind === "edit" || facts.kind === "delete" || facts.kind === "move")
    return `the agent did not say which files the ${facts.kind} touches`;
  return [facts.kind];
}
