import type { DOMElement } from "ink";

/**
 * Draws the frame of what a key just changed now, not when Ink's frame throttle lets it. Ink
 * draws at most every few ms and defers a commit that comes sooner to a timer; while an agent
 * floods, the event loop reaches that timer only after the agent's next reads, so an echo could
 * wait tens of ms behind the stream. Called right after the key's handlers, the key's commit is
 * done (Ink's input runs them in one synchronous batch), and one more draw of the same tree
 * writes nothing when the frame was already drawn.
 */
export function drawAtOnce(node: DOMElement | null): void {
  if (!node) return;
  queueMicrotask(() => {
    let root: DOMElement = node;
    while (root.parentNode) root = root.parentNode;
    root.onImmediateRender?.();
  });
}
