// Runs conch's TUI next to the agent in a real PTY, sends one prompt, and answers the first
// permission request with "always allow" (the `a` key), as a person would; then quits.
// Usage (inside with-agent, cwd = $PROJECT): node tui-always-allow.mjs <conch.js> "<prompt>"
// Prints what it saw (ANSI stripped) and exits 0 once conch said it remembered a rule, 1 otherwise.
import { createRequire } from "node:module";
import path from "node:path";

const [conchJs, prompt] = process.argv.slice(2);
const require = createRequire(path.join(path.dirname(conchJs), "../package.json"));
const pty = require("node-pty");
const child = pty.spawn(process.execPath, [conchJs, "--agent", process.env.AGENT_CMD, prompt], {
  cols: 140,
  rows: 45,
  cwd: process.cwd(),
  env: process.env,
});
let seen = "";
let answered = false;
let done = false;
// Cursor moves become spaces so words drawn apart stay apart; the rest of each sequence is dropped.
const plain = (s) =>
  s
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, " ")
    .replace(/\u001b\][^\u0007]*\u0007/g, "")
    .replace(/\u001b[()][0-9A-Za-z]/g, "");
const deadline = setTimeout(() => finish(1, "timed out"), Number(process.env.TUI_TIMEOUT_MS ?? 90_000));
function finish(code, why) {
  if (done) return;
  done = true;
  clearTimeout(deadline);
  process.stdout.write(`${why}\n--- screen text ---\n${seen.slice(-6000)}\n`);
  child.write("\u0003");
  setTimeout(() => child.write("\u0003"), 300);
  setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      /* gone */
    }
    process.exit(code);
  }, 3000);
}
child.onData((data) => {
  seen += plain(data);
  if (!answered && /keys [a-z/]*\ba\b/.test(seen.replace(/\s+/g, " "))) {
    answered = true;
    child.write("a");
  }
  const flat = seen.replace(/\s+/g, " ");
  if (/always allowed from now on in this project/.test(flat)) finish(0, "remembered");
  else if (/conch cannot remember this answer/.test(flat)) finish(1, "not remembered");
});
child.onExit(({ exitCode }) => finish(1, `conch exited (${exitCode}) before it remembered a rule`));
