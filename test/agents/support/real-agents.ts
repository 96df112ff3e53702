/**
 * Runs the built conch CLI, in print mode, next to a real ACP agent through the offline kit in
 * ../shared/real-agents (`with-agent <agent> <script> '<shell command>'`). One with-agent run is
 * one shell command; a scenario is a list of steps (conch invocations, waits, shell snippets)
 * turned into that command. Everything a step produces (stdout, stderr, exit code) and the project
 * files asked for are written under `$REAL_AGENTS_RUN/conch-out` and printed at the end as one JSON
 * line after a marker, because with-agent deletes the run dir when the command exits.
 */
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";

export const ROOT = path.resolve(__dirname, "../../..");
export const CONCH = path.join(ROOT, "bin/conch.js");
export const KIT = process.env.REAL_AGENTS_KIT ?? path.resolve(ROOT, "../shared/real-agents");
export const WITH_AGENT = path.join(KIT, "with-agent");
const COLLECT = path.join(__dirname, "collect.mjs");
const SESSION_ID = path.join(__dirname, "session-id.mjs");
const RESULT_MARKER = "@@CONCH-AGENTS-RESULT@@";

export type AgentName = "claude" | "claude-next" | "codex" | "codex-next" | "gemini" | "opencode";
export type OutputFormat = "json" | "stream-json" | "text";
export type Permissions = "deny" | "approve-reads" | "approve-all";

/** Where `setup` installs the agents. */
export function agentsHome(): string {
  if (process.env.REAL_AGENTS_HOME) return process.env.REAL_AGENTS_HOME;
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(cache, "real-acp-agents");
}

/** Whether `setup <agent>` was run: its npm project has node_modules. */
export function agentInstalled(agent: AgentName): boolean {
  return existsSync(path.join(agentsHome(), agent, "node_modules")) && existsSync(WITH_AGENT);
}

/** Says once, on the console, that an agent's tests are skipped and why. */
export function reportSkip(agent: AgentName): boolean {
  const installed = agentInstalled(agent);
  if (!installed) {
    console.warn(
      `[test:agents] SKIPPED ${agent}: not installed (${path.join(agentsHome(), agent, "node_modules")} is missing). Run ${path.join(KIT, "setup")} ${agent}`,
    );
  }
  return !installed;
}

/** POSIX shell single-quoting. */
export function sq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface RunOutput {
  code: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
}

/**
 * Runs one shell command next to a real agent; never throws on a non-zero exit. `env` is added to
 * with-agent's environment (e.g. `FAKE_MODEL_LATENCY_MS`).
 */
export async function runWithAgent(
  agent: AgentName,
  script: string,
  shellCommand: string,
  opts: { timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<RunOutput> {
  const started = Date.now();
  const r = await execa(WITH_AGENT, [agent, script, shellCommand], {
    reject: false,
    timeout: opts.timeoutMs ?? 240_000,
    stdin: "ignore",
    cwd: ROOT,
    env: { ...opts.env, WITH_AGENT_QUIET: "1" },
    forceKillAfterDelay: 5_000,
    // with-agent stops the processes of its run itself; kill the whole group if it times out.
    cleanup: true,
  });
  return {
    code: r.exitCode ?? null,
    stdout: String(r.stdout ?? ""),
    stderr: String(r.stderr ?? ""),
    durationMs: Date.now() - started,
    timedOut: !!r.timedOut,
  };
}

/** One conch invocation (print mode) inside a scenario. */
export interface ConchStep {
  kind: "conch";
  /** Names the step's outputs (`p1`, `p2`, ...). */
  name: string;
  prompt: string;
  format?: OutputFormat;
  permissions?: Permissions;
  /** `--timeout` in seconds; the scenario's safety timeout when not given. */
  timeout?: number;
  /** Resume the session id that this earlier step's result object reported. */
  resumeFrom?: string;
  /** Send SIGINT (Ctrl-C) once the step's stdout or its trace (stream-json steps) contains this text. */
  interruptWhen?: string;
  /** Seconds to wait after `interruptWhen` showed up before the Ctrl-C. */
  interruptDelayS?: number;
  /** Record the wire with `--trace` (read back as `StepOutput.wire`); stream-json steps always do. */
  trace?: boolean;
  extraArgs?: string[];
}

/** Raw shell; `$OUT` is the output dir: a file `$OUT/extra-<name>` becomes `extras[name]`. */
export interface ShellStep {
  kind: "shell";
  script: string;
}

export type Step = ConchStep | ShellStep;

/**
 * Every conch run gets a `--timeout` unless it sets its own, so that a turn that never ends shows up
 * as exit 3 with what conch had so far, instead of hanging the whole with-agent run. This is the
 * default for instant model replies; a scenario run with model latency passes a longer one.
 */
export const SAFETY_TIMEOUT_S = 45;

/** A conch print run against the agent. */
export function conch(name: string, prompt: string, opts: Omit<ConchStep, "kind" | "name" | "prompt"> = {}): ConchStep {
  return { kind: "conch", name, prompt, ...opts };
}

/** Raw shell snippet. */
export function shell(script: string): ShellStep {
  return { kind: "shell", script };
}

/**
 * Waits until the UTC minute is later than the one now: gemini-cli 0.61.0 fails `session/load` (and
 * wipes the session) when the loading process starts in the minute the session was created or last
 * saved in. Put it right after the step that used the session: that happened before now.
 */
export function waitForNextUtcMinute(): ShellStep {
  return shell(`M0=$(date -u +%Y%m%d%H%M); while [ "$(date -u +%Y%m%d%H%M)" = "$M0" ]; do sleep 0.2; done`);
}

/**
 * Records, as `extras[name]`, the processes whose command line contains `needle` or is exactly
 * `exact` (e.g. "sleep 30", what a shell's child looks like). The needle is assembled from two
 * halves at run time so that this shell command's own line does not match it.
 */
export function processCheck(name: string, needle: string, exact?: string): ShellStep {
  const half = Math.floor(needle.length / 2);
  const exactTest = exact ? ` || $0 == ${JSON.stringify(exact)}` : "";
  return shell(
    [
      `N1=${sq(needle.slice(0, half))}; N2=${sq(needle.slice(half))}`,
      `ps -eo pid=,args= | awk -v n="$N1$N2" '{ pid = $1; $1 = ""; sub(/^ +/, "") } $0 !~ /^awk / && (index($0, n)${exactTest}) { print pid, $0 }' >"$OUT/extra-${name}"`,
    ].join("\n"),
  );
}

function stepShell(step: Step, safetyTimeoutS: number): string {
  if (step.kind === "shell") return step.script;
  const n = step.name;
  const args = [
    `--agent "$AGENT_CMD"`,
    `-p ${sq(step.prompt)}`,
    `--output-format ${step.format ?? "json"}`,
    step.permissions ? `--permissions ${step.permissions}` : "",
    `--timeout ${step.timeout ?? safetyTimeoutS}`,
    step.resumeFrom ? `--resume "$SID_${step.resumeFrom}"` : "",
    // stream-json shows conch's public lines; what the agent itself sent is read from the trace.
    step.trace || step.format === "stream-json" ? `--trace "$OUT/${n}.trace"` : "",
    ...(step.extraArgs ?? []).map(sq),
  ]
    .filter(Boolean)
    .join(" ");
  const run = `node ${sq(CONCH)} ${args} >"$OUT/${n}.out" 2>"$OUT/${n}.err" </dev/null`;
  const lines = [`echo ${sq(`${n}: conch ${args}`)} >>"$OUT/commands"`, `T0=$(date +%s%3N)`];
  if (step.interruptWhen) {
    // Ctrl-C as soon as the text shows up in conch's output; give up waiting after 120 s.
    lines.push(
      `${run} &`,
      `CPID=$!`,
      `i=0; while kill -0 $CPID 2>/dev/null && ! grep -q -F -- ${sq(step.interruptWhen)} "$OUT/${n}.out" "$OUT/${n}.trace" 2>/dev/null && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done`,
      ...(step.interruptDelayS ? [`sleep ${step.interruptDelayS}`] : []),
      `if kill -0 $CPID 2>/dev/null; then kill -INT $CPID; echo sent >"$OUT/${n}.interrupted"; fi`,
      `wait $CPID; echo $? >"$OUT/${n}.code"`,
    );
  } else {
    lines.push(`${run}; echo $? >"$OUT/${n}.code"`);
  }
  lines.push(`echo $(( $(date +%s%3N) - T0 )) >"$OUT/${n}.ms"`, `SID_${n}=$(node ${sq(SESSION_ID)} "$OUT/${n}.out")`);
  return lines.join("\n");
}

/** The shell command a scenario runs inside with-agent (printable, for repro). */
export function scenarioShell(steps: Step[], files: string[] = [], safetyTimeoutS = SAFETY_TIMEOUT_S): string {
  const head = [`OUT="$REAL_AGENTS_RUN/conch-out"; mkdir -p "$OUT/files"`, `export CONCH_STATE_DIR="$REAL_AGENTS_RUN/conch-state"`];
  const snap = files.map((f, i) => `if [ -f ${sq(f)} ]; then cp ${sq(f)} "$OUT/files/${i}"; fi`);
  return [
    ...head,
    ...steps.map((step) => stepShell(step, safetyTimeoutS)),
    ...snap,
    `node ${sq(COLLECT)} "$OUT" ${files.map(sq).join(" ")}`,
  ].join("\n");
}

export interface ToolCallResult {
  id: string;
  title: string;
  kind: string | null;
  status: string;
  durationMs: number | null;
}

/** The result object of `--output-format json` (the last line of stream-json). */
export interface PrintResult {
  type: "result";
  sessionId: string | null;
  agent: string | null;
  stopReason: string | null;
  text: string;
  usage: unknown;
  context: unknown;
  toolCalls: ToolCallResult[];
  permissionsDenied: { toolCallId: string; title: string }[];
  durationMs: number;
  exitCode: number;
  error: string | null;
}

export interface StepOutput {
  name: string;
  /** The line that ran it (without the node and conch path). */
  command: string;
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number | null;
  interrupted: boolean;
  /** The parsed result object (json: stdout; stream-json: the last line), if any. */
  result?: PrintResult;
  /** stream-json: every line, parsed (the public lines of the README's stream-json table). */
  events: Record<string, any>[];
  /** With `trace`: the JSON-RPC messages conch exchanged with the agent, in order. */
  wire: { dir: "client" | "agent"; msg: Record<string, any> }[];
}

export interface ScenarioRun extends RunOutput {
  agent: AgentName;
  script: string;
  /** `FAKE_MODEL_LATENCY_MS` of the run (0: the scripts' own timing). */
  latencyMs: number;
  shell: string;
  steps: Record<string, StepOutput>;
  /** Project files after the last step (path relative to $PROJECT → content, null when missing). */
  files: Record<string, string | null>;
  extras: Record<string, string>;
  /** A one-line summary for assertion messages. */
  describe(step?: string): string;
}

function parseJsonLines(text: string): Record<string, any>[] {
  const out: Record<string, any>[] = [];
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (!t.startsWith("{")) continue;
    try {
      out.push(JSON.parse(t));
    } catch {
      /* not a JSON line */
    }
  }
  return out;
}

function parseResult(stdout: string): PrintResult | undefined {
  const t = stdout.trim();
  if (!t) return undefined;
  try {
    const whole = JSON.parse(t);
    if (whole && whole.type === "result") return whole;
  } catch {
    /* stream-json: several lines */
  }
  const last = parseJsonLines(t).at(-1);
  return last && last.type === "result" ? (last as PrintResult) : undefined;
}

const tail = (s: string, n = 1500) => (s.length > n ? `…${s.slice(-n)}` : s);

export interface ScenarioOptions {
  /** Project paths (relative to $PROJECT) read after the last step. */
  files?: string[];
  /** How long the whole with-agent run may take. */
  timeoutMs?: number;
  /** `FAKE_MODEL_LATENCY_MS`: the fake model waits this long before every reply (default 0). */
  latencyMs?: number;
  /** `--timeout` of the conch runs that set none (default SAFETY_TIMEOUT_S). */
  safetyTimeoutS?: number;
}

/** Runs a scenario: each step in order inside one with-agent run, then collects every output. */
export async function runScenario(agent: AgentName, script: string, steps: Step[], opts: ScenarioOptions = {}): Promise<ScenarioRun> {
  const sh = scenarioShell(steps, opts.files ?? [], opts.safetyTimeoutS);
  const latencyMs = opts.latencyMs ?? 0;
  const out = await runWithAgent(agent, script, sh, { timeoutMs: opts.timeoutMs, env: { FAKE_MODEL_LATENCY_MS: String(latencyMs) } });
  const at = out.stdout.lastIndexOf(RESULT_MARKER);
  let bundle: {
    steps: Record<
      string,
      {
        command: string;
        code: string | null;
        stdout: string;
        stderr: string;
        ms: string | null;
        interrupted: boolean;
        trace: string | null;
      }
    >;
    files: Record<string, string | null>;
    extras: Record<string, string>;
  } = { steps: {}, files: {}, extras: {} };
  if (at >= 0) bundle = JSON.parse(out.stdout.slice(at + RESULT_MARKER.length).split("\n")[0]);
  const stepOutputs: Record<string, StepOutput> = {};
  for (const [name, s] of Object.entries(bundle.steps)) {
    const code = s.code === null || s.code.trim() === "" ? null : Number(s.code.trim());
    stepOutputs[name] = {
      name,
      command: s.command,
      code,
      stdout: s.stdout,
      stderr: s.stderr,
      ms: s.ms === null ? null : Number(s.ms),
      interrupted: s.interrupted,
      result: parseResult(s.stdout),
      events: parseJsonLines(s.stdout),
      wire: parseJsonLines(s.trace ?? "").filter((l) => l.dir === "client" || l.dir === "agent") as StepOutput["wire"],
    };
  }
  const run: ScenarioRun = {
    ...out,
    agent,
    script,
    latencyMs,
    shell: sh,
    steps: stepOutputs,
    files: bundle.files,
    extras: bundle.extras,
    describe(step?: string) {
      const head = `FAKE_MODEL_LATENCY_MS=${latencyMs} with-agent ${agent} ${script}: exit ${out.code}${out.timedOut ? " (TIMED OUT)" : ""} after ${out.durationMs} ms`;
      const parts = [head];
      if (at < 0) parts.push(`no result marker; with-agent stdout: ${tail(out.stdout)}\nstderr: ${tail(out.stderr)}`);
      const names = step ? [step] : Object.keys(stepOutputs);
      for (const n of names) {
        const s = stepOutputs[n];
        if (!s) {
          parts.push(`step ${n}: did not run`);
          continue;
        }
        parts.push(`step ${n} [${s.command}] exit ${s.code} in ${s.ms} ms\n  stdout: ${tail(s.stdout)}\n  stderr: ${tail(s.stderr)}`);
      }
      return parts.join("\n");
    },
  };
  return run;
}

/** The result object of a step, or a failure that shows what the step printed. */
export function resultOf(run: ScenarioRun, step: string): PrintResult {
  const s = run.steps[step];
  if (!s) throw new Error(`step ${step} did not run\n${run.describe()}`);
  if (!s.result) throw new Error(`step ${step} printed no result object\n${run.describe(step)}`);
  return s.result;
}

/** Tool calls of a result, simplified for `toMatchObject`. */
export function toolSummary(r: PrintResult): { title: string; kind: string | null; status: string }[] {
  return r.toolCalls.map((t) => ({ title: t.title, kind: t.kind, status: t.status }));
}

/**
 * The `session/update` payloads the agent sent during a step (from its trace: stream-json steps and
 * `trace` steps), in order, with their wire index. `history`: sent before the `session/load`
 * response, i.e. the replay of a resumed session.
 */
export function updatesOf(step: StepOutput): { index: number; update: Record<string, any>; history: boolean }[] {
  const loadId = step.wire.find((l) => l.dir === "client" && l.msg.method === "session/load")?.msg.id;
  const loaded = loadId === undefined ? -1 : step.wire.findIndex((l) => l.dir === "agent" && l.msg.id === loadId && !l.msg.method);
  return step.wire
    .map((l, index) => ({ l, index }))
    .filter(({ l }) => l.dir === "agent" && l.msg.method === "session/update" && l.msg.params?.update)
    .map(({ l, index }) => ({ index, update: l.msg.params.update, history: index < loaded }));
}

/** The stream-json lines of a step with this `type` (and `subtype`), in order. */
export function linesOf(step: StepOutput, type: string, subtype?: string): Record<string, any>[] {
  return step.events.filter((e) => e.type === type && (subtype === undefined || e.subtype === subtype));
}
