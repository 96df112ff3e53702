import { beforeAll, describe, expect, it } from "vitest";
import { markdownRows } from "../../../src/ui/render/markdown-rows.js";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { initialSessionState, type CheckpointMark, type SessionState } from "../../../src/session/state.js";
import { mayWarmUp, warmRenderers } from "../../../src/ui/render/warm-up.js";

beforeAll(async () => {
  await loadRenderLibs();
});

const MESSAGE = "## Result\n\nThe **tests** pass:\n\n- `npm test`\n- 12 files\n\n```js\nconsole.log(1);\n```";

describe("warming the row renderers", () => {
  it("draws its samples one task at a time and changes nothing a message is drawn as", () => {
    const before = markdownRows(MESSAGE, 60);
    const streamingBefore = markdownRows(MESSAGE, 60, { live: true, memo: {} });
    const tasks: (() => void)[] = [];
    warmRenderers((step) => void tasks.push(step));
    let ran = 0;
    while (tasks.length) {
      tasks.shift()!();
      ran++;
    }
    expect(ran).toBeGreaterThan(5);
    expect(markdownRows(MESSAGE, 60)).toEqual(before);
    expect(markdownRows(MESSAGE, 60, { live: true, memo: {} })).toEqual(streamingBefore);
  });
});

describe("when the warm-up may run", () => {
  const at = (over: Partial<SessionState>): SessionState => ({ ...initialSessionState(), ...over });
  const queued = [{ id: "q1", text: "hello" }] as SessionState["queue"];
  const start: CheckpointMark = { turnId: "t1", stage: "start", tree: "abc", skipped: [], label: "hello", at: 1 };

  it("waits while a prompt is on its way: the session opening with a message queued, or a turn before its prompt is out", () => {
    expect(mayWarmUp(at({ phase: "starting" }))).toBe(false);
    expect(mayWarmUp(at({ phase: "starting", queue: queued }))).toBe(false);
    expect(mayWarmUp(at({ phase: "idle", queue: queued }))).toBe(false);
    // The prompt waits for its start checkpoint (git steps) before it goes out.
    expect(mayWarmUp(at({ phase: "prompting", currentTurnId: "t1" }))).toBe(false);
    expect(mayWarmUp(at({ phase: "prompting", currentTurnId: "t2", checkpoints: [start] }))).toBe(false);
  });

  it("runs when idle with nothing queued, or once the turn's prompt is out and the agent's answer is awaited", () => {
    expect(mayWarmUp(at({ phase: "idle" }))).toBe(true);
    expect(mayWarmUp(at({ phase: "prompting", currentTurnId: "t1", checkpoints: [start] }))).toBe(true);
  });
});
