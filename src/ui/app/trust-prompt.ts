import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { ProjectFile, TrustChoice } from "../../agents/workspace-trust.js";
import { safeLine } from "../../text/terminal-safe.js";

const ANSWERS: Record<string, TrustChoice> = { t: "trust", s: "leave-out", q: "quit" };

/** The question, as the person reads it: what the file sets, what it would run, and the three ways on. */
export function trustQuestion(project: ProjectFile, color = !process.env.NO_COLOR): string {
  const bold = (s: string) => (color ? `\x1b[1m${s}\x1b[22m` : s);
  const width = Math.max(...project.unsafe.map((s) => s.key.length));
  const why = project.changed ? "has changed since you trusted this folder" : "is in a folder you have not trusted yet";
  return [
    "",
    `${bold(safeLine(project.file))} ${why}.`,
    "It sets what conch runs or what the agent may do:",
    ...project.unsafe.map((s) => `  ${safeLine(s.key).padEnd(width)}  ${safeLine(s.effect)}`),
    "Nothing from it has run. Trust this folder?",
    `  ${bold("t")}  trust it (asked again if .conch.json changes)`,
    `  ${bold("s")}  start without these settings (its other settings still apply)`,
    `  ${bold("q")}  quit`,
    "",
  ].join("\n");
}

/**
 * Asks, before the UI loads, whether to trust a project's `.conch.json`: a plain line prompt (a
 * letter and Enter), so keys typed while conch was starting can never answer it by accident. End
 * of input counts as quit.
 */
export async function askProjectTrust(
  project: ProjectFile,
  io: { input: Readable; output: Writable } = { input: process.stdin, output: process.stdout },
): Promise<TrustChoice> {
  io.output.write(trustQuestion(project));
  const ask = () => io.output.write("t / s / q, then Enter: ");
  // Cooked mode: no keypress decoding is left behind on stdin for Ink to trip over.
  const rl = createInterface({ input: io.input, terminal: false });
  ask();
  try {
    for await (const line of rl) {
      const choice = ANSWERS[line.trim().toLowerCase()];
      if (choice) return choice;
      ask();
    }
    return "quit";
  } finally {
    // Paused, stdin neither keeps conch alive nor takes keys from the UI that follows.
    rl.close();
  }
}
