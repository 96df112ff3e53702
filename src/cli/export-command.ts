import { EXIT, exitCodeOf, messageOf } from "../errors/conch-error.js";
import path from "node:path";
import { CONCH_VERSION } from "../conch-version.js";
import { writeExport } from "../export/export-file.js";
import { transcriptMarkdown } from "../export/transcript-markdown.js";
import type { Command } from "./parse-args.js";
import { findStoredSession } from "./session-setup.js";
import { readStoredSession } from "./stored-session.js";

/** `conch export <id> [--output file] [--force]`: a stored session as Markdown, on stdout or into a file. */
export async function runExportCommand(cmd: Extract<Command, { kind: "export" }>): Promise<number> {
  let markdown: string;
  let id: string;
  try {
    const rec = await findStoredSession(cmd.id);
    id = rec.id;
    const stored = readStoredSession(rec);
    if (stored.writerPid !== undefined)
      process.stderr.write(`conch: session ${rec.id} is open in conch (pid ${stored.writerPid}): exporting what it has logged so far\n`);
    markdown = transcriptMarkdown(stored.state, { exportedAt: Date.now(), version: CONCH_VERSION });
  } catch (err) {
    process.stderr.write(`conch: ${messageOf(err)}\n`);
    return exitCodeOf(err);
  }
  if (cmd.output === undefined) {
    process.stdout.write(markdown);
    return EXIT.ok;
  }
  const file = path.resolve(cmd.output);
  try {
    const { replaced } = writeExport(file, markdown, cmd.force);
    process.stderr.write(`conch: exported session ${id} to ${file}${replaced ? " (replacing the file that was there)" : ""}\n`);
    return EXIT.ok;
  } catch (err) {
    process.stderr.write(`conch: ${(err as Error).message}\n`);
    return EXIT.failed;
  }
}
