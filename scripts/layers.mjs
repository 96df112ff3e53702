// Which folder of src/ui may import which. eslint.config.js turns
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
