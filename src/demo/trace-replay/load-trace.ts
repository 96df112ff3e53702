import { readFile } from "node:fs/promises";
import { isJsonObject, type JsonObject } from "./jsonrpc.js";

export { escapeProjectPath, substituteInString, substitutePlaceholders, type PlaceholderValues } from "./placeholders.js";

/** One line of a trace file: a wire message in either direction, or a note. */
type TraceEntry = { t: number; dir: "client" | "agent"; msg: JsonObject } | { t: number; dir: "note"; text: string };

/** A whole parsed trace file. */
export interface Trace {
  source: string;
  entries: TraceEntry[];
}

/** What the recorded agent process did when its stdin was closed. */
export type EofPolicy = "exit" | "ignore";

/** The part of a trace that belongs to one agent process. */
export interface TraceSegment {
  process: number;
  /** `t` of the process's start note: the time origin for its first agent lines. */
  startT: number;
  entries: TraceEntry[];
  eofPolicy: EofPolicy;
}

const START_NOTE = /^agent process (\d+) started$/;

/** Parse the JSON lines of a trace; `source` names it in error messages. */
export function parseTrace(text: string, source = "<trace>"): Trace {
  const entries: TraceEntry[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "") return;
    entries.push(parseEntry(line, `${source}:${index + 1}`));
  });
  return { source, entries };
}

function parseEntry(line: string, where: string): TraceEntry {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new Error(`${where}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isJsonObject(value) || typeof value.t !== "number") throw new Error(`${where}: expected {t, dir, …}`);
  const { t, dir } = value;
  if (dir === "note" && typeof value.text === "string") return { t, dir, text: value.text };
  if ((dir === "client" || dir === "agent") && isJsonObject(value.msg)) return { t, dir, msg: value.msg };
  throw new Error(`${where}: expected a note with text or a client/agent line with msg`);
}

/** Read and parse a trace file. */
export async function loadTrace(path: string): Promise<Trace> {
  return parseTrace(await readFile(path, "utf8"), path);
}

/** How many agent processes the trace holds (at least 1). */
export function processCount(trace: Trace): number {
  return Math.max(1, ...trace.entries.map(startedProcess).filter((n): n is number => n !== undefined));
}

function startedProcess(entry: TraceEntry): number | undefined {
  if (entry.dir !== "note") return undefined;
  const match = START_NOTE.exec(entry.text);
  return match ? Number(match[1]) : undefined;
}

/**
 * The entries of agent process `n`: from its start note to the next process's start note.
 * A trace without start notes is one process.
 */
export function selectProcess(trace: Trace, n: number): TraceSegment {
  const starts = trace.entries.flatMap((entry, index) => (startedProcess(entry) !== undefined ? [index] : []));
  if (starts.length === 0) {
    if (n !== 1) throw new Error(`${trace.source}: has one agent process, not ${n}`);
    return { process: 1, startT: 0, entries: trace.entries, eofPolicy: eofPolicyOf(trace.entries, 1) };
  }
  const at = starts.findIndex((index) => startedProcess(trace.entries[index]) === n);
  if (at < 0) throw new Error(`${trace.source}: no agent process ${n} (it has ${processCount(trace)})`);
  const first = starts[at];
  const end = at + 1 < starts.length ? starts[at + 1] : trace.entries.length;
  const entries = trace.entries.slice(first + 1, end);
  return { process: n, startT: trace.entries[first].t, entries, eofPolicy: eofPolicyOf(entries, n) };
}

/**
 * Read the exit note: "agent process N exited (code 0) …" means the agent quit on EOF;
 * "… exited on SIGTERM (… the agent had not exited on its own)" means it ignored EOF.
 */
function eofPolicyOf(entries: TraceEntry[], n: number): EofPolicy {
  const prefix = `agent process ${n} exited`;
  const note = entries.find((entry) => entry.dir === "note" && entry.text.startsWith(prefix));
  return note?.dir === "note" && note.text.includes("had not exited on its own") ? "ignore" : "exit";
}
