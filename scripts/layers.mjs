// How src/ is laid out: its folders, which may import which inside ui/ and orchestrator/, and the
// rules between folders. eslint.config.js turns this into `no-restricted-imports` rules (a wrong
// import fails `npm run lint`), scripts/import-graph.mjs measures the code against it, and
// `npm run docs` draws docs/architecture.md's map from it (a test fails when the page is stale or a
// folder of src/ is missing here). Change the layout here, nowhere else.

/** src/'s folders, one line each. */
export const SRC = {
  cli: "the one composition root (nothing imports it): argv to a command, the session built and handed to `ui/` or `print/`, the sessions, agents, doctor, export, attach and undo commands, each returning an exit code from `errors/`",
  errors: "`ConchError` (a kind, a message for the user, a detail such as the agent's stderr tail) and `EXIT`, the one exit-code map",
  json: "`isRecord`, `asRecord`: whether a value from outside is a plain object (a pure leaf)",
  paths: "`isInside(root, child)`, for fs confinement, command cwds and `/undo`",
  text: "`terminal-safe.ts`, the one gate for text from outside before it reaches the terminal; `shellQuote` (a pure leaf)",
  agents: "presets, the config file, workspace trust, the agent's process (spawn, stderr tail, stop), auth methods",
  acp: "the ACP connection: ndjson framing, the SDK client and its fs, terminal, permission and question handlers, the trace, redaction",
  terminals: "client terminals (node-pty, an emulator on its own thread), display terminals, the registry, `TerminalAccess`",
  session: "the pure fold: events, state, `reduce`, the agent profiles, open work, the quiet period, the undo plan's types",
  orchestrator:
    "the session's rules: a core (the intents facade, the event queue, the turn driver and machine, the opener, the desks) and rooms for the adapters and the permission rules (below)",
  store:
    "the session log (JSONL, versioned), the index, the locks, the state dir, the pre-image store and the checkpoints (a shadow git repository) for `/undo`, the remembered permission rules",
  control:
    "`conch attach --write`'s control socket: where a running conch listens (0700 directory, 0600 socket and token), the one-line protocol, the server that runs another terminal's intents, the client and the `RemoteSession` it drives the App through",
  ui: "the TUI, a stack of folders (below)",
  print: "print mode (`conch -p`): text, result and stream-json output",
  export: "the transcript as Markdown (`/export`, `conch export`)",
  demo: "the demo agent, and the trace-replay agent the tests play recorded traces with",
  docs: "the parts of README.md and this page that are made from the code (`npm run docs`)",
};

/**
 * What the lint holds between src/'s folders besides ui/'s stack and orchestrator/'s rooms:
 * eslint.config.js makes each a `no-restricted-imports` rule.
 */
export const LAYER_RULES = {
  ui: {
    /** Folders ui/ never imports. */
    never: ["acp", "store"],
    /** Folders ui/ imports types from, and nothing else. */
    typesOnly: ["orchestrator"],
    why: "ui/ knows a session through session-port.ts",
  },
  session: {
    /** The only folders of conch's session/ imports from. */
    only: ["json", "text"],
    typesOnly: ["errors"],
    why: "session/ is the pure fold",
  },
};

/**
 * src/ui as a stack, top level first: a folder may import the folders of the levels below its own,
 * never one above it or beside it. `.` is the files directly in src/ui (only the port).
 */
export const UI = {
  dir: "src/ui",
  levels: [
    {
      app: "`run-interactive.ts`, `startup-terminal.ts`, `instant-prompt.ts`, `trust-prompt.ts` (asks about an untrusted `.conch.json` before Ink loads), `app.tsx`",
      attach: "`attach-app.tsx` + `run-attach.ts`: `conch attach`'s view, over the session `cli/attach-command.ts` follows from its log",
    },
    {
      components:
        "the Ink views around the transcript, one each: input, prompts (`waiting-prompts.tsx` places the permission prompt and the question form, `permission-block.tsx` sizes the permission prompt to what the rest of the frame leaves), queue, search, status, `picker-view.tsx` (/model, /config)",
    },
    {
      hooks:
        "every hook: `use-keypress.tsx` (conch's one keypress dispatcher and its one `useInput`: `KeypressProvider` at the App's root; `useKeypress(handler, { isActive, priority })` for every view, by `KeyPriority`, a handler that returns true takes the key), `use-answer-once.ts` (the prompts' one rule against a second answer), `use-session-view.ts` (what the App and `conch attach` share: state per frame, the transcript printed, the live region sized under the chrome); `use-shell.ts` (the shell: view state, focus, the key-binding table dispatched in one place; the queue's keys in `queue-handlers.ts`, a picker's in `picker-handlers.ts`) with `use-composer.ts` (what becomes of a written message: sent, steered, a conch command, Ctrl-G, Alt-V), `use-editor-store.ts`, `use-terminal-panes.ts`, `use-search-view.ts`, `use-tasks-view.ts` (the tasks view's keys, over `use-tasks.ts`'s list); `use-session-state.ts` (state and screens, one render per frame; a pane's frame and its output's state change, told in one call, are one render), `use-transcript.ts` (a card whose terminal is still `parsing` is held back from the scrollback until its screen shows the last output), `use-printed-panel.ts` (a panel longer than its room, /help, is printed whole into the scrollback), and the small ones",
    },
    {
      commands:
        "`conch-commands.ts` (conch's slash commands as one table: name, hint, description, handler; /help, the `/` menu's list in `slash-commands.ts`, and dispatch come from it) + `session-option-commands.ts` (/mode, /model, /config) + `export-command.ts`, run in a `command-context.ts`",
    },
    {
      status:
        "`status-text.ts` (the status line's words), `session-facts.ts`, `bar-fit.ts` (what the status bar gives up first when narrow: the cwd before the model), `attention.ts`",
      transcript:
        "settled vs live: `settled-items.ts` says what can no longer change, `transcript-printer.ts` writes it to the scrollback in transcript order, `row-cache.ts` keeps an item's rows while its view is the same object, `live-rows.ts` + `live-region.tsx` give Ink the rows that fit, `pane-sizes.ts` sizes running terminals and finds the ones no call shows",
      search: "`transcript-search.ts`, `highlight-rows.ts`, `task-card.ts` (a task's card as the search view shows it)",
    },
    {
      shell:
        "`key-bindings.ts` (every key: the table of `input-keys.ts` + `view-keys.ts`, the words in `keys.ts`; `commandFor`, hints, footers, /help, the README's table), `shell-state.ts` (the shell's reducer, `focusOf`)",
    },
    {
      render:
        "transcript content as styled rows of at most the width, no Ink: from view models derived once by selectors, `item-view.ts` (`itemViewOf`: an item, and for a tool call its card's call, display, terminals' views, waiting permission and folder; the same object while nothing it shows changed) and `request-view.ts` (`requestViewOf`, for the permission prompt); `item-rows.ts` per item, `markdown-rows.ts` + `markdown-inline.ts` + `markdown-table.ts` + `markdown-split.ts`, `diff-rows.ts`, `tool-card-rows.ts` (with `tool-call-fields.ts`), `pane-rows.ts` (with `screen-colors.ts`), `request-rows.ts` + `permission-layout.ts` (what a permission prompt keeps in the rows it has), `question-layout.ts` (the same for the question form), `undo-rows.ts`; `theme.ts` the colour roles (the views use them too), `style.ts` ANSI by colour role, `text.ts` widths and wrapping (`ascii-wrap.ts`: wrap-ansi's own wrap for ASCII and SGR text, without its per-word grapheme measure); `render-libs.ts` markdown, highlighting, diff, loaded right after the App's first frame (`code-highlight.ts`: highlight.js's token tree styled with cli-highlight's theme, the bytes cli-highlight draws without its HTML round trip; `hljs-lazy.ts`: each grammar registered when first used, with what it embeds, resolved through the generated `hljs-aliases.ts`)",
      editor: "the input editor: `editor-state.ts` (its reducer), `editor-keys.ts`",
      compose:
        "what a message is made of: `prompt-blocks.ts` (text, pasted images, @-mentions as blocks), `file-mentions.ts`, `clipboard-image.ts`, `external-editor.ts`",
      decisions:
        "the pure state of the prompts a person answers: `permission-options.ts` (each option's keys), `question-form-state.ts`, `picker-state.ts` (a list to pick from: entries, filter, selection)",
    },
    {
      tty: "conch's own terminal: `terminal-input.ts` + `key-reads.ts` (conch's one reader of the terminal), `pty-keys.ts` (a key as the bytes a pane's program expects), `terminal-features.ts`, `ink-draw/` (how the bundle's Ink draws a frame: `output.ts`, Ink's `Output` with each row kept by what was written into it, so a frame tokenizes only the rows that changed, and a row of narrow characters and SGR (a pane's) is tokenized without the grapheme segmenter, its characters sharing their style (`styled-chars.ts`, Ink's string to the byte); `log-update.ts`, which writes only the changed rows and no erase after a row that fills the width; `text-measure.ts`, Ink's measuring, wrapping and sanitizing over caches that keep what recent frames used; `screen-fit.ts`, each frame cut to fit the screen, and Ink's fullscreen clear never taken; put in place of Ink's modules by `scripts/ink-draw.mjs`, and the build fails if they are not)",
    },
    {
      ".": "`session-port.ts`: all the UI knows of a session (its state, its intents as `orchestrator/intents.ts` declares them, its terminals)",
    },
  ],
};

/**
 * src/orchestrator: the core (the files directly in it: the facade, the queue, the turn driver and
 * machine, the opener, the desks, the ports) and rooms beside it for the adapters. A room imports
 * of the core only its ports; the core reaches into a room only where it builds it.
 */
export const ORCHESTRATOR = {
  dir: "src/orchestrator",
  core: "the session's rules: `intents.ts` (every intent and the part that carries it out), the facade, the event queue, the turn driver and machine, the opener, the desks, the ports",
  rooms: {
    agent:
      "`agent-link.ts` (an agent process over stdio) and `remote-agent-link.ts` (an agent behind a `ws://` or `http://` URL, over the SDK's experimental clients), both an `AgentPort`, chosen by `connect-agent.ts`; `AgentStartError`",
    record:
      "`session-recorder.ts` (the `EventSink`: routes events to each session's own log; a flushed batch's runs of chunks joined by `session/chunk-join.ts`), `log-writer.ts` (writes one log, a burst in one write, and keeps a full disk's events in memory), `session-index-keeper.ts` (keeps the index), `terminal-output-budget.ts` (a flooding terminal logs its head and last screen)",
    terminals: "`terminal-service.ts`: the `TerminalService` over the terminal registry",
    undo: "`edit-history.ts` (the agent's writes kept for `/undo`, and `/undo`, `/redo`), `turn-undo.ts` (a turn's files checked against the disk, put back or deleted, confined like the agent's writes), `turn-checkpoints.ts` (asks the store for a checkpoint when the session opens, before each prompt goes out (the turn driver's `beforePrompt`), after each call that may change files and when the turn ends; each is a `checkpoint` event), `checkpoint-undo.ts` (a turn's span of checkpoints → the same `UndoPlan` for every writer; `/redo` is the span read the other way)",
    rules:
      'permission rules, beside `permission-policy.ts`: `permission-rules.ts` (pure: parse a rule, `decideByRules` (deny > ask > allow; a compound line is allowed only when each of its commands is), `narrowestAllow` for "always allow"), `command-parts.ts` (pure: a shell line split into its simple commands; what the shell computes marks a part `dynamic`), `call-facts.ts` (the one impure step: the profile\'s command and the call\'s paths, symlinks resolved), `rule-book.ts` (the config\'s rules and the remembered ones; parse errors stop conch with file and line), `rule-gate.ts` (what the permission desk asks: the decision on a pending request, remembering an "always allow")',
    follow: "`followed-session.ts`: attach's follower (the fold and terminal screens fed from the log, no agent, no intents)",
  },
  /** The core files a room may import. */
  corePorts: ["ports.ts"],
  /**
   * The core files that reach into a room, and the rooms each may import: the facade builds the
   * edit history, the checkpoints and the rule gate (and words an agent's exit for print mode); the
   * opener starts the agent; the options and the permission desk name the rule gate's types.
   */
  builders: {
    "orchestrator.ts": ["agent", "undo", "rules"],
    "session-opener.ts": ["agent"],
    "orchestrator-options.ts": ["rules"],
    "permission-desk.ts": ["rules"],
  },
  /** Rooms that use another room: attach's follower feeds the screens through the same terminal service. */
  roomImports: { follow: ["terminals"] },
};
