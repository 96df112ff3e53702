import {
  isFinalStatus,
  itemPosition,
  type SessionState,
  type ToolCallView,
  type TranscriptItem,
  type Turn,
  type TurnOrigin,
} from "./state.js";
import { turnById, turnPosition } from "./turn-lookup.js";

/**
 * A shallow copy of the state that the reducer's helpers change in place.
 *
 * Every state anyone holds is a snapshot: this is the one place that says how. A draft copies each
 * collection on its first write (copy on write), so the state passed to `reduce` or `reduceBatch`
 * is never changed, and nested objects (items, calls, terminals) are replaced, never written. A
 * draft lives for one transition of the event queue (an event, or a burst of them as one batch),
 * so a long session costs one copy of each collection a transition touches, never one per event of
 * a burst: at 9,000 items and 1,800 calls about 40 µs a transition, most of it the calls' map.
 * Transitions come one per read of the agent's output, and terminal output is flushed every 33 ms.
 * Only two caches are shared by every state of a session and only added to (`itemIndex`,
 * `toolByTerminal`, see state.ts): what they hold for an older state stays true.
 *
 * A `transient` draft skips the copies, for a fold that owns every state it makes and reads only
 * the last (a log folded from scratch, the interrupted-runs fold): those states are never
 * published.
 */
export class Draft {
  readonly s: SessionState;
  private copied = new Set<string>();
  /** The text item this draft copied last (`appendText`): not in any state handed out yet. */
  private ownText?: TranscriptItem;

  constructor(
    state: SessionState,
    public at: number,
    private readonly transient = false,
  ) {
    this.s = { ...state, seq: state.seq + 1 };
  }

  /**
   * The next event of a batch goes into the same draft: its collections are already copied, so a
   * burst of a thousand updates copies each collection once, not a thousand times.
   */
  next(at: number): void {
    this.at = at;
    this.s.seq += 1;
  }

  private own<K extends keyof SessionState>(key: K): NonNullable<SessionState[K]> {
    if (!this.copied.has(key)) {
      const v = this.s[key];
      if (!this.transient)
        (this.s as unknown as Record<string, unknown>)[key] = Array.isArray(v)
          ? [...v]
          : v instanceof Set
            ? new Set(v)
            : { ...(v as object) };
      this.copied.add(key);
    }
    return this.s[key] as NonNullable<SessionState[K]>;
  }

  nextId(prefix: string): string {
    this.s.counter += 1;
    return `${prefix}${this.s.counter}`;
  }

  get items(): TranscriptItem[] {
    return this.own("items");
  }
  get turns(): Turn[] {
    return this.own("turns");
  }

  addItem(item: TranscriptItem): void {
    const items = this.items;
    this.s.itemIndex.set(item.id, items.length);
    items.push(item);
  }

  updateItem(id: string, patch: (item: TranscriptItem) => TranscriptItem): void {
    const idx = itemPosition(this.s, id);
    if (idx === undefined) return;
    const items = this.items;
    items[idx] = patch(items[idx]);
  }

  /**
   * Adds to the text of a message: the item is copied once per draft, and its copy, which no state
   * has been handed out with yet, is added to in place (a burst of 300 chunks, one copy, not 300).
   */
  appendText(id: string, text: string): void {
    const idx = itemPosition(this.s, id);
    if (idx === undefined) return;
    const items = this.items;
    const item = items[idx] as TranscriptItem & { text: string };
    if (item === this.ownText) {
      item.text += text;
      return;
    }
    this.ownText = items[idx] = { ...item, text: item.text + text } as TranscriptItem;
  }

  tool(id: string): ToolCallView | undefined {
    return this.s.toolCalls[id];
  }

  setTool(tool: ToolCallView): void {
    const id = tool.toolCallId;
    this.own("toolCalls")[id] = tool;
    const open = this.s.openToolIds;
    if (isFinalStatus(tool) === open.has(id)) {
      if (isFinalStatus(tool)) this.own("openToolIds").delete(id);
      else this.own("openToolIds").add(id);
    }
    if (tool.terminalId) {
      const shown = this.s.toolByTerminal.get(tool.terminalId);
      if (shown === undefined || !this.s.toolCalls[shown]) this.s.toolByTerminal.set(tool.terminalId, id);
    }
  }

  /** The calls not final yet, in a list the caller may change the calls of as it goes. */
  openTools(): ToolCallView[] {
    return [...this.s.openToolIds].map((id) => this.s.toolCalls[id]);
  }

  patchTurn(id: string, patch: Partial<Turn>): void {
    const idx = turnPosition(this.s.turns, id);
    if (idx >= 0) this.patchTurnAt(idx, patch);
  }

  /** `patchTurn` of the turn at `idx` in `s.turns`. */
  patchTurnAt(idx: number, patch: Partial<Turn>): void {
    const turns = this.turns;
    turns[idx] = { ...turns[idx], ...patch };
    let first = this.s.firstOpenTurn;
    while (first < turns.length && turns[first].endedAt !== undefined) first++;
    this.s.firstOpenTurn = first;
  }

  turn(id: string | undefined): Turn | undefined {
    return id === undefined ? undefined : turnById(this.s, id);
  }

  /** Opens a turn and its divider in the transcript, and makes it current. */
  openTurn(id: string, origin: TurnOrigin, history: boolean): string {
    this.turns.push({ id, origin, startedAt: this.at });
    this.addItem({ kind: "turn", id: this.nextId("i"), turnId: id, origin, history });
    this.s.currentTurnId = id;
    return id;
  }

  terminals() {
    return this.own("terminals");
  }
  orphans() {
    return this.own("orphanTerminalMeta");
  }
  permissions() {
    return this.own("permissions");
  }
  questions() {
    return this.own("questions");
  }
  queue() {
    return this.own("queue");
  }
  pendingPrompts() {
    return this.own("pendingPrompts");
  }
  background() {
    return this.own("background");
  }
}
