import { safeLine } from "../../text/terminal-safe.js";
import type { CommandContext } from "./command-context.js";

/** `/permissions [remove N]`: the rules in force, deny first, each with where it is written; `remove N` forgets a remembered one. */
export function runPermissions(args: string, ctx: CommandContext): void {
  const { port, show } = ctx;
  const listed = port.permissionRules();
  const remove = /^(?:remove|rm|delete)\s+(\d+)$/.exec(args.trim());
  if (remove) {
    const entry = listed[Number(remove[1]) - 1];
    if (!entry) return show(`no rule ${remove[1]}: /permissions lists them`, "error");
    const why = port.removePermissionRule(entry.rule);
    return why ? show(safeLine(why), "error") : show(`removed: ${entry.rule.verdict} ${safeLine(entry.rule.text)}`);
  }
  if (args.trim()) return show("usage: /permissions, or /permissions remove <number>", "error");
  if (listed.length === 0)
    return show([
      "no permission rules: every request is asked (or answered by --permissions)",
      'write some under "rules" in your config or .conch.json, e.g. {"rules": {"allow": ["execute(npm test)"], "deny": ["execute(rm *)"]}}',
      'answering a request with "always allow" (a) remembers a rule for this project',
    ]);
  const width = String(listed.length).length;
  show([
    "permission rules in force (deny wins over ask, ask over allow):",
    ...listed.map(
      ({ rule, where }, i) => `${String(i + 1).padStart(width)}. ${rule.verdict.padEnd(5)} ${safeLine(rule.text)} · ${safeLine(where)}`,
    ),
    "",
    "/permissions remove <number> forgets a remembered rule; rules in a config file are edited there",
  ]);
}
