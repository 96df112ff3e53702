import { describe, expect, it, vi } from "vitest";
import { Text } from "ink";
import { render } from "ink-testing-library";
import { useSessionState } from "../../../src/ui/hooks/use-session-state.js";
import type { SessionPort } from "../../../src/ui/session-port.js";
import { FakeSession } from "../fake-session.js";

// A client terminal tells a pane's frame in one call: its output (a state change) and then its new
// rows (a screen change). Both are one frame of the UI: before, the state change drew a frame at
// once and the screen change another a frame later, two renders of the App per pane frame.

/** Frames this far apart: the screen change, a frame after the output's, would be a render of its own. */
const FRAME = 100;

describe("a pane's frame and its output", () => {
  it("are drawn in one render", async () => {
    const screenListeners = new Set<() => void>();
    const session = new FakeSession().open();
    session.emit({ type: "terminal_started", terminalId: "t1", command: "make", args: [], cwd: "/tmp" });
    const port: SessionPort = Object.assign(session, {
      terminals: {
        get: () => undefined,
        write: () => undefined,
        onScreenChange: (fn: () => void) => {
          screenListeners.add(fn);
          return () => screenListeners.delete(fn);
        },
      },
    });
    let renders = 0;
    function Probe() {
      renders++;
      const { state, screens } = useSessionState(port, FRAME);
      return <Text>{`${state.terminals.t1?.outputBytes ?? 0} bytes, screen ${screens}`}</Text>;
    }
    const view = render(<Probe />);
    await vi.waitFor(() => expect(view.lastFrame()).toBe("0 bytes, screen 0"));
    // A frame's time since the first render, so the next change is drawn at once, not at the frame's end.
    await new Promise((resolve) => setTimeout(resolve, FRAME * 1.5));
    const before = renders;

    session.emit({ type: "terminal_output", terminalId: "t1", data: "hello\r\n" });
    for (const tell of screenListeners) tell();

    await vi.waitFor(() => expect(view.lastFrame()).toBe("7 bytes, screen 1"));
    expect(renders - before).toBe(1);
    view.unmount();
  });
});
