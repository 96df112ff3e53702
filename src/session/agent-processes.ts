// The agent's process tree as conch read it from the process table, and which of its processes run
// a given command. Pure: the table is read elsewhere (terminals/process-table.ts) and passed in.

/** One live process of the agent's tree. */
export interface AgentProcess {
  pid: number;
  ppid: number;
  /** Its start time in clock ticks since boot: with the pid, it names this process and no later one. */
  start: string;
  /** When it started (ms since the epoch), where the table says. */
  startedAt?: number;
  argv: string[];
}

/** The agent's tree at one moment: its processes, the agent's own pid among them, and when it was read. */
export interface ProcessSnapshot {
  rootPid: number;
  processes: AgentProcess[];
  at: number;
}

/** Shorter commands (`ls`, `pwd`) would match words of unrelated command lines. */
const MIN_COMMAND_LENGTH = 3;

/** Whether a process runs `command`: one of its words holds it (`bash -lc <command>`, a sandbox's `-- bash -c <command>`). */
function runs(p: AgentProcess, command: string): boolean {
  return p.argv.some((word) => word === command || (word.length > command.length && word.includes(command)));
}

/**
 * The processes that run `command`: the topmost of each subtree whose processes hold it in their
 * command line (a sandbox wrapper and the shell inside it are one match). Empty for a command too
 * short to tell apart.
 */
export function processesRunning(processes: readonly AgentProcess[], command: string | undefined, rootPid?: number): AgentProcess[] {
  const wanted = command?.trim();
  if (!wanted || wanted.length < MIN_COMMAND_LENGTH) return [];
  const matching = processes.filter((p) => p.pid !== rootPid && runs(p, wanted));
  const pids = new Set(matching.map((p) => p.pid));
  return matching.filter((p) => !pids.has(p.ppid));
}

/** A process and all it started, from one snapshot. */
export function subtreeOf(processes: readonly AgentProcess[], pid: number): AgentProcess[] {
  const inTree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of processes) {
      if (!inTree.has(p.pid) && inTree.has(p.ppid)) {
        inTree.add(p.pid);
        grew = true;
      }
    }
  }
  return processes.filter((p) => inTree.has(p.pid));
}

/** A process as a person reads it: its command line, the shell's `-c` script when it is a shell. */
export function commandLineOf(p: AgentProcess): string {
  const c = p.argv.findIndex((w) => /^-[a-z]*c[a-z]*$/.test(w));
  if (c >= 0 && c + 1 < p.argv.length && /(^|\/)(ba|z|da|k)?sh$/.test(p.argv[0] ?? "")) return p.argv[c + 1];
  return p.argv.join(" ");
}
