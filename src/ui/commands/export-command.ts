import path from "node:path";
import { CONCH_VERSION } from "../../conch-version.js";
import type { CommandContext } from "./command-context.js";

/** Splits `/export` arguments: an optional file name (spaces allowed) and `--force`. */
export function parseExportArgs(args: string): { file?: string; force: boolean } {
  const words = args.split(/\s+/).filter(Boolean);
  const force = words.includes("--force");
  const file = words.filter((w) => w !== "--force").join(" ");
  return { file: file || undefined, force };
}

/**
 * `/export [file] [--force]`: the transcript as Markdown in the session's folder. With no name it
 * is `conch-<id>-<date>.md`, numbered past any file already there; a named file that exists is
 * replaced only with `--force`. The writer loads on first use (it brings the diff library).
 */
export function runExport(args: string, ctx: CommandContext): void {
  const { state } = ctx;
  if (!state.info) return ctx.show("nothing to export yet: the session has not opened", "error");
  const { sessionId, cwd } = state.info;
  const { file, force } = parseExportArgs(args);
  void Promise.all([import("../../export/export-file.js"), import("../../export/transcript-markdown.js")]).then(
    ([{ freeExportPath, writeExport }, { transcriptMarkdown }]) => {
      const now = Date.now();
      const target = file ? path.resolve(cwd, file.replace(/^~(?=$|\/)/, process.env.HOME ?? "~")) : freeExportPath(cwd, sessionId, now);
      const markdown = transcriptMarkdown(state, { exportedAt: now, version: CONCH_VERSION });
      try {
        const { replaced } = writeExport(target, markdown, force);
        const shown = path.relative(cwd, target).startsWith("..") ? target : path.relative(cwd, target);
        ctx.show(`exported the transcript to ${shown}${replaced ? " (replacing the file that was there)" : ""}`);
      } catch (err) {
        ctx.show((err as Error).message, "error");
      }
    },
    (err: Error) => ctx.show(`export failed: ${err.message}`, "error"),
  );
}
