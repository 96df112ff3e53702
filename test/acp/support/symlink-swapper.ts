import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { setPriority } from "node:os";
import { createInterface } from "node:readline";

/**
 * A hostile neighbour: a separate process that, as fast as it can, turns `<root>/<name>` from a real
 * directory into a symlink to `outside` and back, by renames only (one symlink, made once, is moved
 * in and out), so the name is a directory about half the time and a way out the other half: a path
 * checked while it is a directory can be opened while it is the link. Resolves once it has swapped;
 * `stop()` kills it.
 */
export async function startSymlinkSwapper(root: string, name: string, outside: string): Promise<{ stop: () => void; child: ChildProcess }> {
  const script = `
    const fs = require("fs");
    const [dir, real, link, outside] = process.argv.slice(1);
    fs.symlinkSync(outside, link);
    let announced = false;
    let strays = 0;
    // A writer that finds the name missing creates a directory there: move it aside and go on.
    const put = (from) => {
      try { fs.renameSync(from, dir); } catch { try { fs.renameSync(dir, dir + ".stray" + strays++); fs.renameSync(from, dir); } catch {} }
    };
    for (;;) {
      try { fs.renameSync(dir, real); } catch {}
      put(link);
      try { fs.renameSync(dir, link); } catch {}
      put(real);
      if (!announced) { process.stdout.write("ready\\n"); announced = true; }
    }`;
  const child = spawn(process.execPath, ["-e", script, `${root}/${name}`, `${root}/.${name}.real`, `${root}/.${name}.link`, outside], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  // It spins a core: niced, so the timing-sensitive tests running beside it are not starved.
  setPriority(child.pid!, 10);
  const lines = createInterface({ input: child.stdout! });
  await once(lines, "line");
  return { child, stop: () => child.kill("SIGKILL") };
}
