import type { AvailableCommand, SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";

/** The demo's modes: they change how often `edit` asks before writing. */
const DEMO_MODES = [
  { id: "ask", name: "Ask before edits", description: "Ask before every file change" },
  { id: "code", name: "Code", description: 'Ask once; "Always allow" is remembered for the session' },
  { id: "plan", name: "Plan only", description: "Describe changes without making them" },
] as const;

export const DEFAULT_MODE = "code";

const DEMO_MODELS = [
  { value: "demo-fast", name: "Demo Fast", description: "Cheap and quick (it is all scripted anyway)" },
  { value: "demo-smart", name: "Demo Smart", description: "Five times the price, same script" },
] as const;

export const DEFAULT_MODEL = "demo-fast";

/** The config option id of the model picker. */
const MODEL_OPTION_ID = "model";

/** A setting of the model (category `model_config`): how much context it keeps. */
const CONTEXT_OPTION_ID = "context";
const DEMO_CONTEXTS = [
  { value: "32k", name: "32k tokens", description: "Enough for a scripted demo" },
  { value: "200k", name: "200k tokens", description: "Room for a very long script" },
] as const;
const DEFAULT_CONTEXT = "32k";

/** A boolean option (offered to clients that advertise `session.configOptions.boolean`). */
const THINKING_OPTION_ID = "thinking";

/** What the session's config options are set to. */
export interface DemoSettings {
  model: string;
  context?: string;
  thinking?: boolean;
}

/** Whether `modeId` names one of the demo's modes. */
export function isDemoMode(modeId: string): boolean {
  return DEMO_MODES.some((mode) => mode.id === modeId);
}

/** Whether `value` names one of the demo's models. */
function isDemoModel(value: string): boolean {
  return DEMO_MODELS.some((model) => model.value === value);
}

/** The `modes` field of session/new, load and resume responses. */
export function modeState(currentModeId: string): SessionModeState {
  return {
    currentModeId,
    availableModes: DEMO_MODES.map((mode) => ({ id: mode.id, name: mode.name, description: mode.description })),
  };
}

/**
 * The unstable `models` field, as claude-agent-acp and gemini-cli send it beside (or instead of) a
 * model config option: the same models, the same current one.
 */
export function modelState(settings: DemoSettings): {
  currentModelId: string;
  availableModels: { modelId: string; name: string; description: string }[];
} {
  return {
    currentModelId: settings.model,
    availableModels: DEMO_MODELS.map((m) => ({ modelId: m.value, name: m.name, description: m.description })),
  };
}

/**
 * The `configOptions` field: the `model` select, the model's `context` setting (category
 * `model_config`), and, for clients that take boolean options, the `thinking` switch.
 */
export function configOptions(settings: DemoSettings, booleans = false): SessionConfigOption[] {
  const options: SessionConfigOption[] = [
    {
      type: "select",
      id: MODEL_OPTION_ID,
      name: "Model",
      description: "Which scripted model answers",
      category: "model",
      currentValue: settings.model,
      options: DEMO_MODELS.map((option) => ({ ...option })),
    },
    {
      type: "select",
      id: CONTEXT_OPTION_ID,
      name: "Context window",
      description: "How much the scripted model remembers",
      category: "model_config",
      currentValue: settings.context ?? DEFAULT_CONTEXT,
      options: DEMO_CONTEXTS.map((option) => ({ ...option })),
    },
  ];
  if (booleans) {
    options.push({
      type: "boolean",
      id: THINKING_OPTION_ID,
      name: "Show thinking",
      description: "Stream thoughts before answers",
      currentValue: settings.thinking === true,
    });
  }
  return options;
}

/**
 * Applies `session/set_config_option` to the settings; false when the option or value is not one
 * of the demo's (a boolean option only for clients that take them).
 */
export function applyConfigOption(settings: DemoSettings, configId: string, value: unknown, booleans: boolean): boolean {
  if (configId === MODEL_OPTION_ID && typeof value === "string" && isDemoModel(value)) settings.model = value;
  else if (configId === CONTEXT_OPTION_ID && typeof value === "string" && DEMO_CONTEXTS.some((c) => c.value === value))
    settings.context = value;
  else if (configId === THINKING_OPTION_ID && booleans && typeof value === "boolean") settings.thinking = value;
  else return false;
  return true;
}

/** The slash commands announced after a session opens. */
export const DEMO_COMMANDS: AvailableCommand[] = [
  { name: "tour", description: "Play the main scenarios in a row" },
  { name: "markdown", description: "Stream a Markdown answer with thoughts first" },
  {
    name: "edit",
    description: "Edit a file through the client's fs, with a diff and a permission request",
    input: { hint: "file to edit (default demo-notes.md)" },
  },
  { name: "run", description: "Run a command with colours and a progress bar in a client terminal" },
  { name: "background", description: "Start a job, end the turn, report back when the job finishes" },
  { name: "plan", description: "Show a plan and work through it" },
  { name: "permission", description: "Ask permission for a dangerous-looking command" },
  { name: "help", description: "List every scenario keyword" },
];
