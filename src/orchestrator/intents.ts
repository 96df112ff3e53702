/**
 * Every intent a session takes, and the part of the orchestrator that carries it out: a method of
 * the same name on that part, whose TSDoc is the intent's contract. The `Orchestrator`'s intents,
 * the UI's `SessionPort` and the tests' fake session are all made from this table, so adding an
 * intent is a line here and the method on its part.
 */
export const INTENTS = {
  // The session at the agent: session-opener.ts, session-switch.ts.
  authenticate: "opener",
  restart: "opener",
  newConversation: "switcher",
  fork: "switcher",
  logout: "switcher",
  // Turns: turn-driver.ts.
  send: "turns",
  sendNow: "turns",
  steer: "turns",
  detach: "turns",
  editQueued: "turns",
  removeQueued: "turns",
  cancel: "turns",
  // What the agent asked: permission-desk.ts, question-desk.ts.
  answerPermission: "permissions",
  answerQuestion: "questions",
  // Permission rules: rules/rule-gate.ts.
  permissionRules: "rules",
  removePermissionRule: "rules",
  // Settings: session-settings.ts.
  setMode: "settings",
  setModel: "settings",
  setConfigOption: "settings",
  // Undo: undo/edit-history.ts.
  planUndo: "edits",
  planRedo: "edits",
  applyUndo: "edits",
  // The work in the person's hands: task-desk.ts (the tasks view, a stop, `!cmd`).
  listTasks: "tasks",
  stopTask: "tasks",
  runCommand: "tasks",
} as const;

/** An intent's name. */
export type IntentName = keyof typeof INTENTS;

/** The name of a part that carries out intents. */
export type IntentPartName = (typeof INTENTS)[IntentName];

/** The intents' names, in the table's order. */
export const INTENT_NAMES = Object.keys(INTENTS) as IntentName[];
