// Which folder of src/ui and which room of src/orchestrator may import which. eslint.config.js turns
// this into `no-restricted-imports` rules (a wrong import fails `npm run lint`), and
// scripts/import-graph.mjs measures the code against it. Change the layout here, nowhere else.

/**
 * src/ui as a stack, top level first: a folder may import the folders of the levels below its own,
 * never one above it or beside it. `.` is the files directly in src/ui (only the port).
 */
export const UI = {
  dir: "src/ui",
  levels: [
    {
      app: "the TUI's entry: startup order, the terminal from conch's first milliseconds, the Ink root",
      attach: "`conch attach`: a read-only TUI over another conch's log",
    },
    { components: "the Ink views around the transcript, one each" },
    { hooks: "every React hook: the shell, the composer, session state, panes, search" },
    { commands: "conch's slash commands as one table, and the `/` menu's list" },
    {
      status: "the status line's words and facts",
      transcript: "settled vs live: the scrollback printer, the row cache, the live region",
      search: "transcript search, pure",
    },
    { shell: "the key table and the shell's view state" },
    {
      render: "transcript content as styled rows (no Ink), colour roles, the lazily loaded libraries",
      editor: "the input editor's state and keys",
      compose: "what a message is made of: pasted images, @-mentions, Ctrl-G, Alt-V",
      decisions: "the pure state of a permission prompt and a question form",
    },
    { tty: "conch's own terminal: key reads, bracketed paste, bytes for a pane, terminal features" },
    { ".": "session-port.ts: all the UI knows of a session" },
  ],
};

/**
 * src/orchestrator: the core (the files directly in it: the facade, the queue, the turn driver and
 * machine, the opener, the desks, the ports) and rooms beside it for the adapters. A room imports
 * of the core only its ports; the core reaches into a room only where it builds it.
 */
export const ORCHESTRATOR = {
  dir: "src/orchestrator",
  core: "the session's rules: the facade, the event queue, the turn driver and machine, the opener, the desks",
  rooms: {
    agent: "an agent behind `AgentPort`: a process over stdio or a remote URL, chosen by connect-agent.ts",
    record: "the `EventSink`: each session's log, the index, a flooding terminal's budget",
    terminals: "the `TerminalService` over the client terminals",
    undo: "`/undo`: the agent's writes kept, a turn's files put back",
    follow: "attach's follower: a session folded from its log, no agent",
  },
  /** The core files a room may import. */
  corePorts: ["ports.ts"],
  /**
   * The core files that build a room, and the rooms each may import: the facade builds the edit
   * history and passes its plans on (and words an agent's exit for print mode); the opener starts
   * the agent.
   */
  builders: {
    "orchestrator.ts": ["agent", "undo"],
    "session-opener.ts": ["agent"],
  },
  /** Rooms that use another room: attach's follower feeds the screens through the same terminal service. */
  roomImports: { follow: ["terminals"] },
};
