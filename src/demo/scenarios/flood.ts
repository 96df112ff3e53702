import { randomUUID } from "node:crypto";
import type { Scenario } from "./scenario.js";

const WORDS = ["lorem ", "ipsum ", "dolor ", "sit ", "amet, ", "consectetur ", "adipiscing ", "elit. "];
/** Waiting for the write queue every so often keeps memory flat without slowing the stream much. */
const BACKPRESSURE_EVERY = 500;

/** The text of chunk `index` of a flood: words, with a line break every twelve. */
export function floodChunk(index: number): string {
  const word = WORDS[index % WORDS.length];
  return index % 12 === 11 ? `${word.trimEnd()}\n` : word;
}

/** `flood N`: N message chunks as fast as possible, for benchmarks. */
export const floodScenario: Scenario = {
  name: "flood",
  keywords: ["flood"],
  summary: "`flood N` sends N message chunks as fast as possible (default CONCH_DEMO_FLOOD_CHUNKS)",
  async run(turn, args) {
    const requested = Number.parseInt(args.trim(), 10);
    const count = Number.isFinite(requested) && requested >= 0 ? requested : turn.config.floodChunks;
    const messageId = randomUUID();
    let pending: Promise<void> = Promise.resolve();
    let characters = 0;
    for (let index = 0; index < count; index++) {
      const text = floodChunk(index);
      characters += text.length;
      pending = turn.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text }, messageId });
      if (index % BACKPRESSURE_EVERY === BACKPRESSURE_EVERY - 1) {
        await pending;
        if (turn.cancelled) break;
      }
    }
    await pending;
    turn.outputTokens += Math.ceil(characters / 4);
  },
};
