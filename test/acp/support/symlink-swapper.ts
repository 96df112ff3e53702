import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

/**
 * A hostile neighbour: a separate process that, as fast as it can, turns `<root>/<name>` from a real
 * directory into a symlink to `outside` and back (each step a rename, so the name always exists).
 * Resolves once it has swapped at least once; `stop()` kills it.
 */
export async function startSymlinkSwapper(root: string, name: string, outside: string): Promise<{ stop: () => void; child: ChildProcess }> {
  const script = `
    const fs = require("fs");
    const [dir, real, link, tmp, outside] = process.argv.slice(1);
    let announced = false;
    for (;;) {
      try { fs.unlinkSync(tmp); } catch {}
      try {
        fs.renameSync(dir, real);
        fs.symlinkSync(outside, tmp);
        fs.renameSync(tmp, dir);
        fs.unlinkSync(dir);
        fs.renameSync(real, dir);
      } catch {}
      if (!announced) { process.stdout.write("ready\\n"); announced = true; }
    }`;
  const child = spawn(process.execPath, ["-e", script, `${root}/${name}`, `${root}/.${name}.real`, `${root}/${name}`, `${root}/.${name}.link`, outside], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const lines = createInterface({ input: child.stdout! });
  await once(lines, "line");
  return { child, stop: () => child.kill("SIGKILL") };
}
