import { describe, expect, it, vi } from "vitest";
import type { DOMElement } from "ink";
import { drawAtOnce } from "../../../src/ui/tty/draw-at-once.js";

/** A node under Ink's root, as the editor's box is. */
function tree() {
  const onImmediateRender = vi.fn();
  const root = { nodeName: "ink-root", parentNode: undefined, onImmediateRender } as unknown as DOMElement;
  const app = { nodeName: "ink-box", parentNode: root } as unknown as DOMElement;
  const editor = { nodeName: "ink-box", parentNode: app } as unknown as DOMElement;
  return { editor, onImmediateRender };
}

describe("a key's frame drawn at once", () => {
  it("draws the root unthrottled once the key's handlers are done, not before", async () => {
    const { editor, onImmediateRender } = tree();
    drawAtOnce(editor);
    // The key's commit is still to come in the same task: nothing drawn yet.
    expect(onImmediateRender).not.toHaveBeenCalled();
    await Promise.resolve();
    expect(onImmediateRender).toHaveBeenCalledTimes(1);
  });

  it("does nothing before the editor is mounted", async () => {
    expect(() => drawAtOnce(null)).not.toThrow();
    await Promise.resolve();
  });
});
