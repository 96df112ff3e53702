import { readFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import type { ToolCallContent, ToolCallLocation } from "@agentclientprotocol/sdk";
import { askPermission, EDIT_OPTIONS } from "../permission-request.js";
import type { Turn } from "../turn.js";
import type { Scenario } from "./scenario.js";

/** The file `edit` changes when the prompt names none, relative to the session's cwd. */
const DEFAULT_EDIT_FILE = "demo-notes.md";

const NEW_FILE_HEADER = "# Demo notes\n\nLines added by the conch demo agent.\n";
const EDIT_LINE = /^- conch demo edit #\d+/gm;

/** The text `edit` writes, given what the file held (`null` when it did not exist). */
export function editedText(oldText: string | null): string {
  const base = oldText === null || oldText === "" ? NEW_FILE_HEADER : oldText;
  const count = (base.match(EDIT_LINE) ?? []).length;
  const separator = base.endsWith("\n") ? "" : "\n";
  return `${base}${separator}- conch demo edit #${count + 1}: written through fs/write_text_file\n`;
}

/** `edit`: read a file through the client, show a diff, ask, then write it through the client. */
export const editScenario: Scenario = {
  name: "edit",
  keywords: ["edit"],
  summary: "reads a file via fs/read_text_file, shows a diff, asks permission, writes via fs/write_text_file",
  async run(turn, args) {
    const path = resolve(turn.session.cwd, args.trim() || DEFAULT_EDIT_FILE);
    const shown = relative(turn.session.cwd, path) || path;
    if (turn.session.record.modeId === "plan") {
      await turn.say(
        `Plan mode: I would add a line to \`${shown}\`, but plan mode changes no files. Switch to **Code** or **Ask before edits** to let me write.`,
      );
      return;
    }

    await turn.say(`I'll add a line to \`${shown}\`.`);
    const oldText = await readCurrentText(turn, path);
    if (turn.cancelled) return;
    const newText = editedText(oldText);
    const diff: ToolCallContent = { type: "diff", path, oldText, newText };
    const locations: ToolCallLocation[] = [{ path, line: newText.split("\n").length - 1 }];
    const toolCallId = turn.newToolCallId("edit");
    const title = `Edit ${shown}`;
    await turn.send({
      sessionUpdate: "tool_call",
      toolCallId,
      title,
      kind: "edit",
      status: "pending",
      locations,
      content: [diff],
      rawInput: { path },
    });

    if (!turn.capabilities.fs?.writeTextFile) {
      await turn.send(failedUpdate(toolCallId, diff, "not written: the client did not advertise fs.writeTextFile"));
      await turn.say("Your client did not advertise `fs.writeTextFile`, so I can only show the diff; nothing was written.");
      return;
    }

    if (needsPermission(turn)) {
      const decision = await askPermission(
        turn,
        { toolCallId, title, kind: "edit", status: "pending", locations, content: [diff] },
        EDIT_OPTIONS,
      );
      if (decision.outcome === "cancelled") {
        await turn.send(failedUpdate(toolCallId, diff, "cancelled"));
        return "cancelled";
      }
      if (!decision.option.kind.startsWith("allow")) {
        await turn.send(failedUpdate(toolCallId, diff, "rejected by user"));
        await turn.say(`You chose **${decision.option.name}**, so \`${shown}\` stays as it was.`);
        return;
      }
      if (decision.option.kind === "allow_always") turn.session.record.allowAlwaysEdits = true;
    }

    await turn.send({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" });
    try {
      await turn.client.request("fs/write_text_file", { sessionId: turn.session.id, path, content: newText });
    } catch (error) {
      await turn.send(failedUpdate(toolCallId, diff, `write failed: ${describeError(error)}`));
      await turn.say(`The client could not write \`${shown}\`: ${describeError(error)}`);
      return;
    }
    await turn.send({ sessionUpdate: "tool_call_update", toolCallId, status: "completed", content: [diff], locations });
    await turn.say(`Done: \`${shown}\` has a new line at the end.`);
  },
};

/** `ask` mode asks every time; `code` mode asks until the user picks "Always allow edits". */
function needsPermission(turn: Turn): boolean {
  return turn.session.record.modeId === "ask" || !turn.session.record.allowAlwaysEdits;
}

/** Reads through the client when it offers fs; otherwise reads the disk, as agents without fs support do. */
async function readCurrentText(turn: Turn, path: string): Promise<string | null> {
  try {
    if (turn.capabilities.fs?.readTextFile) {
      const response = await turn.client.request("fs/read_text_file", { sessionId: turn.session.id, path });
      return response.content;
    }
    return await readFile(path, "utf8");
  } catch {
    // Missing or unreadable: treat it as a new file.
    return null;
  }
}

function failedUpdate(toolCallId: string, diff: ToolCallContent, reason: string) {
  return {
    sessionUpdate: "tool_call_update" as const,
    toolCallId,
    status: "failed" as const,
    content: [diff, { type: "content" as const, content: { type: "text" as const, text: reason } }],
  };
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
