import type { SessionState } from "../../session/state.js";
import type { TerminalAccess } from "../../terminals/terminal-access.js";

/** The user's own command in the input: `!cmd` runs it, `!!cmd` runs it and attaches its output to the next message. */
export function shellLineOf(text: string): { line: string; attach: boolean } | undefined {
  if (!text.startsWith("!")) return undefined;
  const attach = text.startsWith("!!");
  return { line: text.slice(attach ? 2 : 1).trim(), attach };
}

/** The label that stands in the message for a command's output, as `[image 1]` does for an image. */
export function outputLabel(line: string): string {
  const flat = line.replace(/\s+/g, " ").trim();
  return `[output of !${flat.length > 40 ? `${flat.slice(0, 39)}…` : flat}]`;
}

/** Output attached to a message is at most this many characters: the end is what matters, the head is cut. */
const MAX_OUTPUT_CHARS = 64 * 1024;

/**
 * What the agent gets of a command of the user's: the command line, what its screen shows (the
 * emulator's text, scrollback included: progress bars as they ended, no escape sequences), and how
 * it ended, or that it still runs.
 */
export function commandOutput(state: SessionState, terminals: TerminalAccess | undefined, terminalId: string): string {
  const view = state.terminals[terminalId];
  const screen = terminals?.get(terminalId)?.screen;
  let text = screen
    ? screen
        .snapshot({ tail: 100_000 })
        .map((line) =>
          line
            .map((seg) => seg.text)
            .join("")
            .trimEnd(),
        )
        .join("\n")
    : (view?.outputTail ?? "").replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, "");
  if (text.length > MAX_OUTPUT_CHARS) text = `[… ${text.length - MAX_OUTPUT_CHARS} characters cut]\n${text.slice(-MAX_OUTPUT_CHARS)}`;
  const end = !view?.exited
    ? "[still running]"
    : view.signal
      ? `[ended by ${view.signal}]`
      : typeof view.exitCode === "number"
        ? `[exit ${view.exitCode}]`
        : "[ended]";
  return `$ ${view?.command ?? ""}\n${text.trimEnd()}\n${end}`;
}
