/** The command line of the replay agent, parsed. */
export interface ReplayCliArgs {
  tracePath: string;
  process: number;
  speed: number;
  project?: string;
  home?: string;
  tmpdir?: string;
  /** `--causal`: release agent lines by cause instead of in strict recorded order. */
  causal?: boolean;
}

/** The usage line printed on bad arguments. */
export const REPLAY_USAGE =
  "usage: main.js <trace.jsonl> [--process N] [--speed X|inf] [--project DIR] [--home DIR] [--tmpdir DIR] [--causal]";

/** Parse the replay agent's arguments (see REPLAY_USAGE); throws on bad input. */
export function parseReplayArgs(argv: readonly string[]): ReplayCliArgs {
  const parsed: Partial<ReplayCliArgs> = { process: 1, speed: 1 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? splitOnce(arg) : [arg, undefined];
    if (!flag.startsWith("--")) {
      if (parsed.tracePath !== undefined) throw new Error(`unexpected argument ${arg}`);
      parsed.tracePath = arg;
      continue;
    }
    if (flag === "--causal") {
      if (inline !== undefined) throw new Error("--causal takes no value");
      parsed.causal = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    switch (flag) {
      case "--process":
        parsed.process = parseProcess(value);
        break;
      case "--speed":
        parsed.speed = parseSpeed(value);
        break;
      case "--project":
        parsed.project = value;
        break;
      case "--home":
        parsed.home = value;
        break;
      case "--tmpdir":
        parsed.tmpdir = value;
        break;
      default:
        throw new Error(`unknown option ${flag}`);
    }
  }
  if (parsed.tracePath === undefined) throw new Error("missing trace file");
  return { ...parsed, tracePath: parsed.tracePath, process: parsed.process ?? 1, speed: parsed.speed ?? 1 };
}

function splitOnce(arg: string): [string, string] {
  const at = arg.indexOf("=");
  return [arg.slice(0, at), arg.slice(at + 1)];
}

function parseProcess(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--process must be a positive integer, got ${value}`);
  return n;
}

/** `inf`, `infinity` or `Infinity` mean no delays at all. */
function parseSpeed(value: string): number {
  if (/^inf(inity)?$/i.test(value)) return Number.POSITIVE_INFINITY;
  const speed = Number(value);
  if (!(speed > 0)) throw new Error(`--speed must be a positive number or "inf", got ${value}`);
  return speed;
}
