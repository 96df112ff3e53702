import path from "node:path";

/** Lines the placeholder takes: a blank line, the prompt, the status bar. */
const LINES = 3;

/**
 * Draws the input prompt at once, before the UI's modules (Ink compiles its layout engine to
 * WebAssembly when loaded, which takes a few hundred ms) are ready; keys typed meanwhile wait in
 * the terminal. Returns the function that erases it just before the real UI draws over it.
 */
export function drawInstantPrompt(out: NodeJS.WriteStream, agent: string, cwd: string): () => void {
  const home = process.env.HOME;
  const shown = home && (cwd === home || cwd.startsWith(`${home}${path.sep}`)) ? `~${cwd.slice(home.length)}` : cwd;
  const dim = process.env.NO_COLOR ? (s: string) => s : (s: string) => `\x1b[2m${s}\x1b[22m`;
  out.write(`\n›  ${dim("message the agent · / commands · @ files")}\n${dim(`${agent} · starting… · ${shown}`)}`);
  let erased = false;
  return () => {
    if (erased) return;
    erased = true;
    // Back to the start of the placeholder's first line, then clear everything below it.
    out.write(`\r\x1b[${LINES - 1}A\x1b[J`);
  };
}
