import { backgroundScenario } from "./background.js";
import { crashScenario } from "./crash.js";
import { editScenario } from "./edit.js";
import { floodScenario } from "./flood.js";
import { createHelpScenario } from "./help.js";
import { hookScenario } from "./hook.js";
import { interactiveScenario } from "./interactive.js";
import { markdownScenario } from "./markdown.js";
import { outsideScenario } from "./outside.js";
import { questionScenario } from "./question.js";
import { permissionScenario } from "./permission.js";
import { permissions2Scenario } from "./permissions2.js";
import { planScenario } from "./plan.js";
import { plansScenario } from "./plans.js";
import { settingsScenario } from "./settings.js";
import { runScenario } from "./run.js";
import type { Scenario } from "./scenario.js";
import { slowScenario } from "./slow.js";
import { maxTokensScenario, refuseScenario } from "./stop-reasons.js";
import { thoughtsScenario } from "./thoughts.js";
import { createTourScenario } from "./tour.js";
import { unknownUpdateScenario } from "./unknown-update.js";
import { usageScenario } from "./usage.js";

/** The tour ends with `background`, so its turn answers while the job still runs. */
const tourScenario = createTourScenario([markdownScenario, planScenario, editScenario, runScenario, backgroundScenario]);

/** Every scenario, in matching priority: when a prompt holds several keywords the first one here wins ("run" is last because it is so common). */
export const SCENARIOS: readonly Scenario[] = [
  tourScenario,
  markdownScenario,
  permissions2Scenario,
  permissionScenario,
  hookScenario,
  interactiveScenario,
  backgroundScenario,
  editScenario,
  plansScenario,
  planScenario,
  settingsScenario,
  floodScenario,
  crashScenario,
  slowScenario,
  refuseScenario,
  maxTokensScenario,
  thoughtsScenario,
  unknownUpdateScenario,
  usageScenario,
  outsideScenario,
  questionScenario,
  createHelpScenario(() => SCENARIOS, { keywords: ["help"], intro: "I am the conch demo agent. I play scripted scenarios:" }),
  runScenario,
];

/** What an unrecognised prompt gets: a short answer listing the keywords. */
export const fallbackScenario: Scenario = createHelpScenario(() => SCENARIOS, {
  keywords: [],
  intro: "I'm the conch demo agent, and I only know a few scripts. Pick one by keyword:",
});

/** What a greeting gets: a welcome and the keywords, starting with the tour. */
export const greetingScenario: Scenario = createHelpScenario(() => SCENARIOS, {
  keywords: [],
  intro:
    "Hello! I'm the conch demo agent: I play scripted scenarios so you can see everything conch shows without a real agent. Type `tour` for a walk through all of it, or pick one:",
});
