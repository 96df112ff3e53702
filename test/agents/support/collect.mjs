// Prints everything a scenario left in its output dir as one JSON line after a marker:
// steps (<name>.out/.err/.code/.ms/.interrupted/.trace and the command line), the project files given
// as arguments (snapshotted as files/<index>; null when missing) and extra-<name> files.
// Runs inside the with-agent shell command (cwd = $PROJECT), before with-agent deletes the run dir.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const [dir, ...files] = process.argv.slice(2);
const read = (p) => (existsSync(p) ? readFileSync(p, "utf8") : null);
const commands = (read(path.join(dir, "commands")) ?? "").split("\n").filter(Boolean);
const steps = {};
for (const line of commands) {
  const name = line.slice(0, line.indexOf(":"));
  steps[name] = {
    command: line.slice(name.length + 2),
    code: read(path.join(dir, `${name}.code`)),
    stdout: read(path.join(dir, `${name}.out`)) ?? "",
    stderr: read(path.join(dir, `${name}.err`)) ?? "",
    ms: read(path.join(dir, `${name}.ms`)),
    interrupted: existsSync(path.join(dir, `${name}.interrupted`)),
    trace: read(path.join(dir, `${name}.trace`)),
  };
}
const snap = {};
files.forEach((f, i) => {
  snap[f] = read(path.join(dir, "files", String(i)));
});
const extras = {};
for (const f of readdirSync(dir)) if (f.startsWith("extra-")) extras[f.slice(6)] = read(path.join(dir, f));
process.stdout.write(`\n@@CONCH-AGENTS-RESULT@@${JSON.stringify({ steps, files: snap, extras })}\n`);
