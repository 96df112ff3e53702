import { beforeAll, describe, expect, it } from "vitest";
import { markdownRows } from "../../../src/ui/render/markdown-rows.js";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { initialSessionState, type CheckpointMark, type SessionState, type TerminalView } from "../../../src/session/state.js";
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

  it("stops before a step when told not to go on, and goes on from that step", () => {
    const tasks: (() => void)[] = [];
    let allowed = true;
    let steps = 0;
    const goOn = warmRenderers(
      (step) => void tasks.push(step),
      () => {
        if (allowed) steps++;
        return allowed;
      },
    );
    const runAll = () => {
      while (tasks.length) tasks.shift()!();
    };
    tasks.shift()!();
    tasks.shift()!();
    expect(steps).toBe(2);
    allowed = false;
    runAll();
    expect(steps).toBe(2);
    allowed = true;
    goOn();
    goOn(); // already going: no second chain
    runAll();
    const all = steps;
    expect(all).toBeGreaterThan(5);
    goOn();
    runAll();
    expect(steps).toBe(all);
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

  it("waits while a terminal prints: its pane's output is read and drawn on the same thread", () => {
    const terminal = (over: Partial<TerminalView>): SessionState["terminals"] => ({
      t1: { terminalId: "t1", source: "client", exited: false, outputTail: "", outputBytes: 0, history: false, startedAt: 1_000, ...over },
    });
    const waiting = { phase: "prompting" as const, currentTurnId: "t1", checkpoints: [start] };
    expect(mayWarmUp(at({ ...waiting, terminals: terminal({ lastAt: 5_000 }) }), 5_500)).toBe(false);
    expect(mayWarmUp(at({ ...waiting, terminals: terminal({}) }), 1_200)).toBe(false);
    // Quiet for a while (a server waiting for requests), exited, or from the history: no longer printing.
    expect(mayWarmUp(at({ ...waiting, terminals: terminal({ lastAt: 5_000 }) }), 9_000)).toBe(true);
    expect(mayWarmUp(at({ ...waiting, terminals: terminal({ lastAt: 5_000, exited: true }) }), 5_500)).toBe(true);
    expect(mayWarmUp(at({ phase: "idle", terminals: terminal({ lastAt: 5_000, history: true }) }), 5_500)).toBe(true);
  });
});
