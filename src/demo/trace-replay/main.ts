#!/usr/bin/env node
// Entry: node dist/demo/trace-replay/main.js <trace.jsonl> [--process N] [--speed X|inf] [--causal] …
import { parseReplayArgs, REPLAY_USAGE, type ReplayCliArgs } from "./cli-args.js";
import { loadTrace } from "./load-trace.js";
import { runReplayAgent } from "./replay-agent.js";

function argsOrExit(): ReplayCliArgs {
  try {
    return parseReplayArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`trace-replay: ${errorMessage(error)}\n${REPLAY_USAGE}\n`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const args = argsOrExit();
  const trace = await loadTrace(args.tracePath);
  const agent = runReplayAgent(trace, {
    input: process.stdin,
    output: process.stdout,
    process: args.process,
    speed: args.speed,
    project: args.project,
    home: args.home,
    tmpdir: args.tmpdir,
    causal: args.causal,
  });
  void agent.stdinClosed.then(() => {
    // Mimic agents that ignore EOF: with stdin gone nothing else holds the process open,
    // so hold it until the SIGTERM the client will have to send.
    if (agent.segment.eofPolicy === "ignore") setInterval(() => undefined, 1 << 30);
  });
  const exit = await agent.exited;
  process.exit(exit.code ?? 0);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

main().catch((error: unknown) => {
  process.stderr.write(`trace-replay: ${errorMessage(error)}\n`);
  process.exit(1);
});
