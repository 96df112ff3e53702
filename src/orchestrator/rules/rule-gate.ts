import type { AnsweringRule } from "../../session/events.js";
import type { SessionEvents } from "../ports.js";
import { callFactsOf } from "./call-facts.js";
import { originLabel, type CallFacts, type PermissionRule, type RuleVerdict } from "./permission-rules.js";
import type { RuleBook } from "./rule-book.js";

/** Where a rule is written, as the tool card says it: "in .conch.json", "in your config", "remembered for this project". */
export function shortOrigin(rule: PermissionRule): string {
  if (rule.origin.layer === "remembered") return "remembered for this project";
  if (rule.origin.layer === "project") return "in .conch.json";
  return "in your config";
}

/** The permission desk's view of the rules: their decision on a pending request, and "always allow" remembered. */
export class RuleGate {
  private readonly facts = new Map<string, CallFacts>();

  constructor(
    readonly book: RuleBook,
    private readonly events: SessionEvents,
    private readonly cwd: string,
  ) {}

  /** The rules' decision on pending request `key` (already in the state), or undefined. */
  decide(key: string): { verdict: RuleVerdict; rule: AnsweringRule } | undefined {
    const pending = this.events.state.permissions.find((p) => p.key === key);
    if (!pending) return undefined;
    let facts: CallFacts;
    try {
      facts = callFactsOf(this.events.state, pending, this.cwd);
    } catch {
      return undefined;
    }
    this.facts.set(key, facts);
    const decision = this.book.decide(facts);
    if (!decision) return undefined;
    const [first] = decision.rules;
    const text = decision.rules.map((r) => r.text).join("`, `");
    return { verdict: decision.verdict, rule: { verdict: decision.verdict, text, from: shortOrigin(first) } };
  }

  /** The person chose "always allow" on request `key`: the narrowest rule is remembered, and a notice says which. */
  remember(key: string): void {
    const facts = this.facts.get(key);
    this.facts.delete(key);
    if (!facts) return;
    const done = this.book.remember(facts);
    const text =
      "rules" in done
        ? `always allowed from now on in this project: ${done.rules.map((r) => `\`${r}\``).join(", ")} (/permissions lists and removes rules)`
        : `conch cannot remember this answer: ${done.why}; it will ask again next time`;
    this.events.dispatch({ type: "notice", level: "rules" in done ? "info" : "warning", text });
  }

  /** A request left the desk without "always allow": its facts are not needed any more. */
  forget(key: string): void {
    this.facts.delete(key);
  }

  /** `/permissions`: every rule in force, deny first, with where it is written. */
  permissionRules(): { rule: PermissionRule; where: string }[] {
    return this.book.rules.map((rule) => ({ rule, where: originLabel(rule.origin) }));
  }

  /** Removes a remembered rule; a string says why it cannot be (a config file's rule is edited there). */
  removePermissionRule(rule: PermissionRule): string | undefined {
    return this.book.remove(rule);
  }
}
