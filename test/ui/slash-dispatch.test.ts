// conch's slash commands are one table: what a submitted line runs, with which arguments, what goes
// to the agent instead, and that /help and the `/` menu list every entry of that table.
import { describe, expect, it } from "vitest";
import type { CommandContext } from "../../src/ui/commands/command-context.js";
import { CONCH_COMMANDS, conchCommandOf } from "../../src/ui/commands/conch-commands.js";
import { allSlashCommands } from "../../src/ui/commands/slash-commands.js";
import { FakeSession } from "./fake-session.js";

function context(session: FakeSession, shown: { lines: string[]; tone?: string }[]): CommandContext {
  return {
    port: session,
    state: session.state,
    show: (lines, tone) => shown.push({ lines: [lines].flat(), tone }),
    clearScreen: () => undefined,
    toggleExpanded: () => true,
    restart: () => undefined,
    quit: () => undefined,
    openSearch: (query) => shown.push({ lines: [`search: ${query}`] }),
  };
}

/** Submits a line as the input does: a conch command runs here; null means it goes to the agent. */
function submit(session: FakeSession, line: string): { lines: string[]; tone?: string }[] | null {
  const conch = conchCommandOf(line);
  if (!conch) return null;
  const shown: { lines: string[]; tone?: string }[] = [];
  conch.command.run(conch.args, context(session, shown));
  return shown;
}

describe("slash command dispatch", () => {
  it("passes what follows the name as the arguments, trimmed", () => {
    const session = new FakeSession().open();
    submit(session, "/mode   ask  ");
    expect(session.calls).toContainEqual({ intent: "setMode", args: ["ask"] });
    expect(submit(session, "/search two words")).toEqual([{ lines: ["search: two words"] }]);
    expect(submit(session, "/search")).toEqual([{ lines: ["search: "] }]);
  });

  it("passes the agent's own commands and unknown names through to the agent, as typed", () => {
    const session = new FakeSession().open();
    session.update({ sessionUpdate: "available_commands_update", availableCommands: [{ name: "review", description: "review" }] });
    expect(conchCommandOf("/review main")).toBeNull();
    expect(conchCommandOf("/not-a-command")).toBeNull();
    expect(conchCommandOf("hello /mode")).toBeNull();
    expect(session.calls).toEqual([]);
  });

  it("runs conch's command where the agent has one of the same name", () => {
    const session = new FakeSession().open();
    session.update({ sessionUpdate: "available_commands_update", availableCommands: [{ name: "help", description: "the agent's help" }] });
    const shown = submit(session, "/help")!;
    expect(shown[0].lines).toContain("/help · keys and commands");
  });

  it("lists every command of the table in /help and in the menu, with its hint", () => {
    const help = submit(new FakeSession().open(), "/help")![0].lines;
    const menu = allSlashCommands([]);
    for (const c of CONCH_COMMANDS) {
      expect(help).toContain(`/${c.name}${c.hint ? ` ${c.hint}` : ""} · ${c.description}`);
      expect(menu).toContainEqual(expect.objectContaining({ name: c.name, description: c.description, hint: c.hint, source: "conch" }));
    }
    expect(menu.map((c) => c.name)).toEqual(CONCH_COMMANDS.map((c) => c.name));
  });

  it("names what conch does from a shell beside the session: attach and export with this session's id, the probe", () => {
    const session = new FakeSession().open();
    const help = submit(session, "/help")![0].lines;
    const id = session.state.info!.sessionId;
    expect(help).toContain(`conch attach ${id} · follow this session read-only, as it grows`);
    expect(help).toContain(`conch export ${id} · the transcript as Markdown`);
    expect(help).toContain("conch agents --probe · what each agent can do, next to what conch uses");
  });
});
