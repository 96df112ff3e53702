import { ConfigError, type RuleEntry } from "../../agents/config-file.js";
import type { RememberedRules } from "../../store/remembered-rules.js";
import { decideByRules, narrowestAllow, parseRule, type CallFacts, type PermissionRule, type RuleDecision } from "./permission-rules.js";

/** Parses the config's rules; one that does not parse stops conch with its file and line (nothing it meant is applied). */
export function parseRuleEntries(entries: readonly RuleEntry[]): PermissionRule[] {
  const rules: PermissionRule[] = [];
  const errors: string[] = [];
  for (const e of entries) {
    const rule = parseRule(e.text, e.verdict, { layer: e.layer, file: e.file, line: e.line });
    if (typeof rule === "string") errors.push(`  ${e.file}${e.line ? `:${e.line}` : ""}: rules.${e.verdict}: ${rule}`);
    else rules.push(rule);
  }
  if (errors.length) throw new ConfigError(`a permission rule does not parse, so conch did not start:\n${errors.join("\n")}`);
  return rules;
}

/** What "always allow" did: the rules it wrote, or why it could not write one (the call is still allowed once). */
export type Remembering = { rules: string[] } | { why: string };

/**
 * The rules in force for one workspace: the config's (user, and a trusted project's) and what conch
 * remembered for this project from "always allow" answers. The decision itself is pure
 * (`decideByRules`); this holds the list and writes what is remembered.
 */
export class RuleBook {
  private remembered: PermissionRule[] = [];
  /** Why the remembered rules could not be read, once, for a notice. */
  problem?: string;

  constructor(
    private readonly configured: readonly PermissionRule[],
    private readonly store: RememberedRules | undefined,
    private readonly project: string,
  ) {
    this.reload();
  }

  /** Every rule in force, deny first, as `/permissions` lists them. */
  get rules(): PermissionRule[] {
    const all = [...this.configured, ...this.remembered];
    const rank = { deny: 0, ask: 1, allow: 2 } as const;
    return all.sort((a, b) => rank[a.verdict] - rank[b.verdict]);
  }

  /** The rules' decision about a call, or undefined when none speaks to it. */
  decide(facts: CallFacts): RuleDecision | undefined {
    return decideByRules(this.rules, facts);
  }

  /** Remembers the narrowest rule that allows this call for this project. */
  remember(facts: CallFacts): Remembering {
    const texts = narrowestAllow(facts);
    if (typeof texts === "string") return { why: texts };
    if (!this.store) return { why: "this session keeps no remembered rules" };
    try {
      this.store.add(this.project, texts);
    } catch (err) {
      return { why: `it could not be saved (${(err as Error).message})` };
    }
    this.reload();
    return { rules: texts };
  }

  /** Removes a remembered rule; a string says why not (a rule of a config file is removed by editing the file). */
  remove(rule: PermissionRule): string | undefined {
    if (rule.origin.layer !== "remembered" || !this.store)
      return `${rule.text} is written in ${rule.origin.file}${rule.origin.line ? ` line ${rule.origin.line}` : ""}: edit that file to remove it`;
    try {
      if (!this.store.remove(this.project, rule.text)) return `${rule.text} is no longer remembered`;
    } catch (err) {
      return `it could not be removed (${(err as Error).message})`;
    }
    this.reload();
    return undefined;
  }

  private reload(): void {
    if (!this.store) return;
    const read = this.store.read(this.project);
    this.problem = read.problem;
    const origin = { layer: "remembered" as const, file: read.file };
    const rules: PermissionRule[] = [];
    for (const text of read.allow) {
      const rule = parseRule(text, "allow", origin);
      // A remembered rule that no longer parses allows nothing; the others still apply.
      if (typeof rule === "string") this.problem ??= `a remembered rule in ${read.file} does not parse (${rule}): it does not apply`;
      else rules.push(rule);
    }
    this.remembered = rules;
  }
}
