import { fallbackScenario, greetingScenario, SCENARIOS } from "./scenarios/catalog.js";
import type { Scenario } from "./scenarios/scenario.js";

/** The scenario a prompt asks for, and what followed its keyword. */
export interface ScenarioChoice {
  scenario: Scenario;
  args: string;
}

const GREETING = /^\s*(hi|hello|hey)\b/i;

/**
 * Picks a scenario for a prompt: `/keyword args` names one directly; a
 * greeting gets a welcome that points at the tour (a tour asks permission,
 * which a script's `conch -p hello` would refuse); otherwise the first
 * scenario (in catalog order) whose keyword appears as a whole word wins,
 * with arguments only when the keyword opens the prompt (`flood 5000`), so
 * "please edit the file" does not edit a file named "the file".
 * Anything else gets the help answer.
 */
export function chooseScenario(text: string): ScenarioChoice {
  const command = /^\s*\/(\S+)\s*([\s\S]*)$/.exec(text);
  if (command) {
    const word = command[1].toLowerCase();
    const scenario = SCENARIOS.find((candidate) => candidate.keywords.includes(word));
    if (scenario) return { scenario, args: command[2].trim() };
  }
  if (GREETING.test(text)) return { scenario: greetingScenario, args: "" };
  for (const scenario of SCENARIOS) {
    for (const keyword of scenario.keywords) {
      const match = new RegExp(`(^\\s*|[^\\w])${escapeRegExp(keyword)}(?![\\w])([\\s\\S]*)$`, "i").exec(text);
      if (match) return { scenario, args: match.index === 0 && match[1].trim() === "" ? match[2].trim() : "" };
    }
  }
  return { scenario: fallbackScenario, args: "" };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
