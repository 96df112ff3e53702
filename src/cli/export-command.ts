import path from "node:path";
import { CONCH_VERSION } from "../acp/conch-version.js";
import { writeExport } from "../export/export-file.js";
import { transcriptMarkdown } from "../export/transcript-markdown.js";
import type { Command } from "./parse-args.js";
import { findStoredSession, SessionNotFoundError } from "./session-setup.js";
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
    process.stderr.write(`conch: ${(err as Error).message}\n`);
    return err instanceof SessionNotFoundError ? 4 : 1;
  }
  if (cmd.output === undefined) {
    process.stdout.write(markdown);
    return 0;
  }
  const file = path.resolve(cmd.output);
  try {
    const { replaced } = writeExport(file, markdown, cmd.force);
    process.stderr.write(`conch: exported session ${id} to ${file}${replaced ? " (replacing the file that was there)" : ""}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`conch: ${(err as Error).message}\n`);
    return 1;
  }
}
