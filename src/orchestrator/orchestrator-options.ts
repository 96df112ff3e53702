import type { McpServer } from "@agentclientprotocol/sdk";
import type { ClientHooks } from "../acp/agent-connection.js";
import type { ResolvedAgent } from "../agents/presets.js";
import type { SessionEvent, SessionEventInput } from "../session/events.js";
import type { SessionState } from "../session/state.js";

/** A session log read back: its events, and the state they fold to when the reader folded them already. */
export interface ResumedLog {
  events: SessionEvent[];
  state?: SessionState;
  /**
   * Set when the reader left out the text the agent's replay brings (`session/replayed-text.ts`):
   * `events` and `state` then serve the load (what the replay lacks) but are not the transcript,
   * and this reads the whole log again, for showing conch's own record of it.
   */
  whole?: () => Promise<ResumedLog>;
}
import type { PreImageStore } from "../store/pre-image-store.js";
import type { WorkspaceCheckpoints } from "../store/checkpoint-store.js";
import type { PermissionPolicy } from "./permission-policy.js";
import type { RuleBook } from "./rules/rule-book.js";
import type { AgentPort, EventSink, ProcessProbe, TerminalService } from "./ports.js";
import type { TurnTiming } from "../session/quiet-period.js";

/** What the composition root (cli/) gives an orchestrator: the agent, the workspace, and the ports it writes to. */
export interface OrchestratorOptions {
  agent: ResolvedAgent;
  cwd: string;
  policy: PermissionPolicy;
  timing?: Partial<TurnTiming>;
  traceFile?: string;
  logFile?: string;
  sink?: EventSink;
  mcpServers?: McpServer[];
  /** Directories beyond `cwd` the session may use (`--add-dir`): passed to agents that take them, and open to fs/*. */
  additionalDirectories?: string[];
  /** Builds the terminal service; it reports output and exits as events through `emit`. */
  terminals?: (emit: (ev: SessionEventInput) => void, cwd: string) => TerminalService;
  /** Starts the agent; defaults to spawning it. Tests pass a scripted fake. */
  connect?: (hooks: ClientHooks, withTerminals: boolean) => Promise<AgentPort>;
  /** Events to fold before anything happens: a session log read back for `--resume`. */
  history?: SessionEvent[];
  /**
   * The session log being resumed, read when the session opens rather than before: a long one takes
   * seconds to read and fold, and the UI is up meanwhile. Instead of `history`. `replayed` says,
   * once the agent is up, whether it replays the session (`session/load`), so that the text its
   * replay brings need not be read.
   */
  loadHistory?: (replayed: () => boolean) => Promise<ResumedLog>;
  /** How long the agent may take to answer `initialize`. */
  startTimeoutMs?: number;
  /** Where what the agent's writes replaced is kept, for `/undo`; without it, writes are not tracked. */
  preImages?: PreImageStore;
  /** The workspace's checkpoints (a shadow git repository): `/undo` of every writer's changes. */
  checkpoints?: WorkspaceCheckpoints;
  /** The permission rules in force (config layers and remembered answers); without them only the policy answers. */
  rules?: RuleBook;
  /** A person is there to answer (the TUI), whatever the policy: an `ask` rule asks them. */
  interactive?: boolean;
  /** Nothing keeps a published state, only the newest is read (print mode): see `EventQueueOptions.newestOnly`. */
  newestStateOnly?: boolean;
  now?: () => number;
  /** Looks at and stops processes of the agent's tree; defaults to the process table. Tests pass a fake. */
  processProbe?: ProcessProbe;
}
