import { describe, expect, it } from "vitest";
import { OUTPUT_TAIL_BYTES } from "../../src/session/apply-terminal.js";
import type { SessionEvent } from "../../src/session/events.js";
import { foldEvents } from "../../src/session/reduce.js";

describe("a terminal's output tail in the state", () => {
  it("is the last OUTPUT_TAIL_BYTES of everything it printed, whatever the size of each piece", () => {
    const pieces = [3000, 70_000, 12, OUTPUT_TAIL_BYTES, 200_000, 5, OUTPUT_TAIL_BYTES - 1, 40_000].map(
      (size, i) => String.fromCharCode(97 + i).repeat(size - 1) + "\n",
    );
    let at = 1;
    const events: SessionEvent[] = [{ type: "terminal_started", at: at++, terminalId: "t", command: "make", args: [], cwd: "/p" }];
    let printed = "";
    for (const data of pieces) {
      events.push({ type: "terminal_output", at: at++, terminalId: "t", data });
      printed += data;
      const t = foldEvents(events).terminals.t;
      expect(t.outputTail).toBe(printed.slice(-OUTPUT_TAIL_BYTES));
      expect(t.outputBytes).toBe(printed.length);
    }
  });
});
