// Keystroke → echo in conch's TUI, as a person meets it: single letters typed into the input, each
// timed from its write to the PTY until the input line on the screen shows it.
import { sleep } from "./common.mjs";
import { SCREEN } from "./tui.mjs";

/** The input is the last prompt line on the screen (the transcript echoes sent prompts with the same `›`). */
export const promptLine = (lines) => lines.findLast((l) => SCREEN.prompt.test(l)) ?? "";

/**
 * Types `keys` letters into a running TuiRun's input, `gapMs` (a [min, max] range) apart, clearing
 * the input (Ctrl-U) every 40 letters. `typed` is what the input already holds. Resolves with each
 * key's latency in ms. Stops early (with what it has) once `until()` is false. `sentAt`, when given,
 * gets each key's send time (ms since spawn), in the same order.
 */
export async function typeKeys(run, { keys, gapMs = [20, 60], timeoutMs = 5000, until = () => true, typed: already = "", sentAt }) {
  const latencies = [];
  let typed = already;
  const letters = "abcdefghijklmnopqrstuvwxyz";
  for (let k = 0; k < keys && until(); k++) {
    if (typed.length >= 40) {
      run.write("\x15");
      await run.waitFor((lines) => !promptLine(lines).includes(typed), timeoutMs, "the input to clear");
      typed = "";
    }
    const want = typed + letters[k % 26];
    const sent = run.now();
    run.write(want.at(-1));
    const shown = await run.waitFor((lines) => promptLine(lines).includes(`› ${want}`), timeoutMs, `"${want}" in the input`);
    latencies.push(shown - sent);
    sentAt?.push(sent);
    typed = want;
    await sleep(gapMs[0] + Math.random() * (gapMs[1] - gapMs[0]));
  }
  return latencies;
}
