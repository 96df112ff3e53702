/**
 * The screen thread: a worker that runs the @xterm/headless emulator of every client terminal, so
 * parsing a command's output never competes with the UI for the main thread. It takes output as
 * the main thread reads it from the PTY and sends back, per terminal, a frame of the rows a view
 * shows at most ~30 times a second (and at once when asked), plus how much it has parsed, so the
 * main thread can pause a PTY that outruns it. Started by `screen-thread.ts`.
 */
import { parentPort } from "node:worker_threads";
import type { FromScreenThread, ScreenFrame, ScreenWindow, ToScreenThread } from "./screen-protocol.js";
import { TerminalScreen } from "./terminal-screen.js";
import { immediateZeroDelayTimers } from "./immediate-timers.js";

/** ~30 frames a second: what a pane redraws at most... */
const FRAME_MS = 33;
/**
 * ...unless its command floods: past this much output (UTF-16 units) between two frames (~1 MB/s
 * and more), 10 a second. Each frame is a redraw of the UI on the main thread, which is also the
 * thread that reads the PTY: at 30 a second a flood spent most of it redrawing rows nobody can read
 * at that speed, and the command waited. The first change after a quiet spell still goes out at once.
 */
const FLOOD_CHARS_PER_FRAME = 32 * 1024;
const FLOOD_FRAME_MS = 100;

const port = parentPort;
if (!port) throw new Error("screen-worker runs as a worker thread");
// xterm's own pauses between parse slices: nothing on this thread needs them to last 1 ms.
immediateZeroDelayTimers();
const send = (message: FromScreenThread): void => port.postMessage(message);

/** Parsed output not yet acknowledged, per terminal; sent once per turn of the event loop. */
const unacked = new Map<number, number>();
let ackScheduled = false;
function acknowledge(id: number, chars: number): void {
  unacked.set(id, (unacked.get(id) ?? 0) + chars);
  if (ackScheduled) return;
  ackScheduled = true;
  setImmediate(sendAcks);
}
function sendAcks(): void {
  ackScheduled = false;
  for (const [screenId, parsed] of unacked) send({ type: "parsed", id: screenId, chars: parsed });
  unacked.clear();
}

/** One terminal's emulator and the frames it owes the main thread. */
class ScreenSource {
  private readonly screen: TerminalScreen;
  private tailRows: number;
  private headRows = 0;
  private window: ScreenWindow | null = null;
  private dirty = false;
  /** Output parsed since the last frame, in UTF-16 units... */
  private sinceFrame = 0;
  /** ...and whether the last frame followed a flood of it: the next one waits FLOOD_FRAME_MS. */
  private flooding = false;
  private lastFrameAt = -Infinity;
  private frameTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly id: number,
    options: { cols: number; rows: number; scrollback: number; tailRows: number },
  ) {
    this.screen = new TerminalScreen(options);
    this.tailRows = options.tailRows;
    this.screen.onReply((data) => send({ type: "reply", id, data }));
  }

  /** `chars`: the output's length in UTF-16 units, as the main thread counts it. */
  write(data: Uint8Array, chars: number): void {
    this.screen.write(data, () => {
      acknowledge(this.id, chars);
      this.sinceFrame += chars;
      this.changed();
    });
  }

  resize(cols: number, rows: number): void {
    this.screen.resize(cols, rows);
    // A reflow is not output: the view needs the new rows now.
    this.sendFrame();
  }

  view(tailRows: number, headRows: number, window: ScreenWindow | null): void {
    this.tailRows = tailRows;
    this.headRows = headRows;
    this.window = window;
    this.sendFrame();
  }

  /** Runs `then` once everything written so far is parsed, acknowledged and its frame sent. */
  flush(then: () => void): void {
    this.screen.write("", () => {
      sendAcks();
      if (this.dirty) this.sendFrame();
      then();
    });
  }

  text(then: (text: string) => void): void {
    this.screen.write("", () => then(this.screen.plainText()));
  }

  close(): void {
    clearTimeout(this.frameTimer);
    this.screen.dispose();
  }

  /** The first change after a quiet spell goes out at once; a burst becomes one frame per FRAME_MS (a flood's, FLOOD_FRAME_MS). */
  private changed(): void {
    this.dirty = true;
    if (this.frameTimer) return;
    const interval = this.flooding ? FLOOD_FRAME_MS : FRAME_MS;
    const wait = Math.max(0, interval - (performance.now() - this.lastFrameAt));
    this.frameTimer = setTimeout(() => {
      this.frameTimer = undefined;
      if (this.dirty) this.sendFrame();
    }, wait);
  }

  private sendFrame(): void {
    this.dirty = false;
    this.flooding = this.sinceFrame > FLOOD_CHARS_PER_FRAME;
    this.sinceFrame = 0;
    this.lastFrameAt = performance.now();
    const { screen, window } = this;
    const cursor = screen.cursor;
    const frame: ScreenFrame = {
      type: "frame",
      id: this.id,
      cols: screen.cols,
      rows: screen.rows,
      baseY: screen.scrollbackRows,
      bufferType: screen.bufferType,
      cursorX: cursor.x,
      cursorY: cursor.y,
      tail: screen.snapshot({ tail: this.tailRows }),
      head: this.headRows > 0 ? screen.snapshot({ head: this.headRows }) : [],
      contentRows: screen.contentRows,
      window: window ? { ...window, lines: screen.snapshot({ scrollOffset: window.offset, rows: window.rows }) } : null,
    };
    send(frame);
  }
}

const sources = new Map<number, ScreenSource>();

port.on("message", (message: ToScreenThread) => {
  if (message.type === "open") {
    sources.set(message.id, new ScreenSource(message.id, message));
    return;
  }
  const source = sources.get(message.id);
  if (!source) return;
  switch (message.type) {
    case "write":
      source.write(message.data, message.chars);
      break;
    case "resize":
      source.resize(message.cols, message.rows);
      break;
    case "view":
      source.view(message.tailRows, message.headRows, message.window);
      break;
    case "flush":
      source.flush(() => send({ type: "flushed", id: message.id, seq: message.seq }));
      break;
    case "text":
      source.text((text) => send({ type: "text", id: message.id, seq: message.seq, text }));
      break;
    case "close":
      source.close();
      sources.delete(message.id);
      unacked.delete(message.id);
      break;
  }
});
