import React from "react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup } from "ink-testing-library";
import { renderKeyed as render } from "./render-keyed.js";
import { QueueView } from "../../src/ui/components/queue-view.js";
import type { QueuedMessage } from "../../src/session/state.js";
import { KEY, plain, tick } from "./fake-session.js";

afterEach(() => cleanup());

const queue: QueuedMessage[] = [
  { id: "q1", text: "run the tests" },
  { id: "q2", text: "then fix what fails\nand explain why" },
];

function setup(over: Partial<React.ComponentProps<typeof QueueView>> = {}) {
  const events: string[] = [];
  const view = render(
    <QueueView
      queue={queue}
      selected={1}
      editingId={null}
      width={80}
      isActive
      onSelect={(i) => events.push(`select ${i}`)}
      onEdit={(m) => events.push(`edit ${m.id}`)}
      onRemove={(m) => events.push(`remove ${m.id}`)}
      onLeave={() => events.push("leave")}
      {...over}
    />,
  );
  return { ...view, events, frame: () => plain(view.lastFrame()) };
}

describe("the queue view", () => {
  it("numbers the queued messages in send order and shows a long one on one line", () => {
    const { frame } = setup({ isActive: false, selected: null });
    expect(frame()).toContain("  1. run the tests");
    expect(frame()).toContain("  2. then fix what fails (+1 lines)");
    expect(frame()).toContain("queued: sent when the turn ends · ↑ on an empty input to edit or remove");
  });

  it("marks the selected message and lists the keys while it has them", () => {
    const { frame } = setup();
    expect(frame()).toContain("› 2. then fix what fails");
    expect(frame()).toContain("↑↓ choose · enter/e edit · d remove · esc back");
  });

  it("moves, edits, removes and leaves with the keys it shows", async () => {
    const { stdin, events } = setup();
    await tick();
    for (const k of [KEY.up, KEY.enter, "e", "d", KEY.backspace, KEY.escape]) {
      stdin.write(k);
      await tick(30);
    }
    expect(events).toEqual(["select 0", "edit q2", "edit q2", "remove q2", "remove q2", "leave"]);
  });

  it("shows which message is being edited", () => {
    const { frame } = setup({ isActive: false, selected: null, editingId: "q1" });
    expect(frame()).toContain("1. run the tests  (editing)");
  });

  it("draws nothing for an empty queue", () => {
    const { frame } = setup({ queue: [] });
    expect(frame()).toBe("");
  });
});

describe("a long queue", () => {
  it("lists a window that follows the selection and counts the rest", () => {
    const many = Array.from({ length: 10 }, (_, i) => ({ id: `q${i}`, text: `message ${i + 1}` }));
    const { lastFrame } = render(
      <QueueView
        queue={many}
        selected={5}
        editingId={null}
        width={80}
        maxShown={3}
        isActive
        onSelect={() => {}}
        onEdit={() => {}}
        onRemove={() => {}}
        onLeave={() => {}}
      />,
    );
    const frame = plain(lastFrame());
    expect(frame).toContain("… 3 more before\n  4. message 4\n  5. message 5\n› 6. message 6\n  … 4 more after");
  });
});
