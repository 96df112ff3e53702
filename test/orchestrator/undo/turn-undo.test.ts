import { realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { planUndo } from "../../../src/orchestrator/undo/turn-undo.js";
import type { SessionEvent, SessionEventInput } from "../../../src/session/events.js";
import { foldEvents } from "../../../src/session/reduce.js";
import { contentHash, PreImageStore } from "../../../src/store/pre-image-store.js";
import { tempDir } from "../../support/run-conch.js";

let at = 0;
const ev = (e: SessionEventInput): SessionEvent => ({ ...e, at: ++at }) as SessionEvent;
const version = (b: Buffer) => ({ bytes: b.length, sha256: contentHash(b) });

/** A workspace, an undo store, and a session whose turns wrote files there. */
function setup() {
  const cwd = realpathSync(tempDir("conch-ws-"));
  const store = new PreImageStore(tempDir("conch-state-"));
  const events: SessionEvent[] = [ev({ type: "session_started", info: { sessionId: "s1", cwd, agentName: "a", origin: "new" } })];
  const file = (name: string) => path.join(cwd, name);
  return {
    cwd,
    store,
    events,
    file,
    io: { cwd, sessionId: "s1", store },
    /** The agent wrote `after` over `before` (kept in the store unless `keep` is false). */
    write(turnId: string, name: string, before: Buffer | null, after: Buffer, keep = true) {
      if (before && keep) store.put("s1", before);
      writeFileSync(file(name), after);
      events.push(
        ev({
          type: "file_written",
          turnId,
          path: file(name),
          before: before && version(before),
          after: version(after),
          ...(keep ? {} : { lost: "it was too big" }),
        }),
      );
    },
    turn(turnId: string, text: string, work: () => void) {
      events.push(ev({ type: "prompt_sent", turnId, prompt: [{ type: "text", text }] }));
      work();
      events.push(ev({ type: "prompt_response", turnId, response: { stopReason: "end_turn" } }));
    },
    tool(toolCallId: string, kind: string, extra: Record<string, unknown> = {}) {
      events.push(
        ev({
          type: "update",
          notification: {
            sessionId: "s1",
            update: {
              sessionUpdate: "tool_call",
              toolCallId,
              title: `${kind} ${toolCallId}`,
              kind: kind as never,
              status: "completed",
              ...extra,
            },
          },
        }),
      );
    },
  };
}

describe("planning an undo", () => {
  it("says what the turn did that conch did not see: the commands it ran", async () => {
    const w = setup();
    w.turn("t1", "fix it", () => {
      w.write("t1", "a.txt", Buffer.from("old\n"), Buffer.from("new\n"));
      w.tool("c1", "execute", { title: "npm test" });
    });
    const answer = await planUndo(foldEvents(w.events), "", w.io);
    expect(answer).toMatchObject({
      kind: "plan",
      plan: {
        turnId: "t1",
        label: "fix it",
        files: [{ shown: "a.txt", action: "restore", now: { text: "new\n" }, restored: { text: "old\n" } }],
        skipped: [],
        unseen: ["the turn ran a command (`npm test`): what it changed is not undone"],
      },
    });
  });

  it("will not quietly undo an older turn when the last one edited files with the agent's own tools", async () => {
    const w = setup();
    w.turn("t1", "one", () => w.write("t1", "a.txt", Buffer.from("old\n"), Buffer.from("new\n")));
    w.turn("t2", "two", () => w.tool("e1", "edit", { locations: [{ path: w.file("b.txt") }] }));
    const state = foldEvents(w.events);
    const answer = await planUndo(state, "", w.io);
    expect(answer).toEqual({
      kind: "message",
      lines: [
        "the last turn that changed files (t2) did it with the agent's own tools, which conch cannot undo",
        `the agent's own tools edited \`b.txt\`: conch did not see those writes, so undo cannot put them back`,
        "",
        "turns conch can undo (/undo <turn>):",
        "t1 · one · 1 file: a.txt",
      ],
    });
    expect(await planUndo(state, "t1", w.io)).toMatchObject({ kind: "plan", plan: { turnId: "t1" } });
    expect(await planUndo(state, "7", w.io)).toMatchObject({
      kind: "message",
      error: true,
      lines: ['no turn "7" with edits conch can undo; these have some (/undo <turn>):', "t1 · one · 1 file: a.txt"],
    });
  });

  it("leaves files whose earlier content was not kept or is kept no longer, and shows binary content by size", async () => {
    const w = setup();
    w.turn("t1", "one", () => {
      w.write("t1", "big.txt", Buffer.from("huge"), Buffer.from("x"), false);
      w.write("t1", "evicted.txt", Buffer.from("was here"), Buffer.from("y"));
      w.write("t1", "image.bin", Buffer.from([0, 1, 2]), Buffer.from("text now"));
    });
    w.store.remove("s1");
    w.store.put("s1", Buffer.from([0, 1, 2]));
    const answer = await planUndo(foldEvents(w.events), "", w.io);
    if (answer.kind !== "plan") throw new Error("expected a plan");
    expect(answer.plan.files).toMatchObject([
      { shown: "image.bin", action: "restore", now: { text: "text now" }, restored: { binary: 3 } },
    ]);
    expect(answer.plan.skipped).toEqual([
      { path: w.file("big.txt"), shown: "big.txt", reason: "its earlier content was not kept: it was too big" },
      {
        path: w.file("evicted.txt"),
        shown: "evicted.txt",
        reason: "its earlier content is no longer kept (undo keeps the newest 64 MiB of each session)",
      },
    ]);
  });

  it("leaves a file the agent had already written itself before it sent conch the same content (opencode)", async () => {
    const w = setup();
    w.turn("t1", "one", () => w.write("t1", "hello.txt", Buffer.from("hello ACP\n"), Buffer.from("hello ACP\n")));
    const answer = await planUndo(foldEvents(w.events), "", w.io);
    expect(answer).toMatchObject({
      kind: "plan",
      plan: { files: [], skipped: [{ shown: "hello.txt", reason: expect.stringContaining("conch saw no change") }] },
    });
  });

  it("says there is nothing conch can undo when no write went through it", async () => {
    const w = setup();
    w.turn("t1", "one", () => w.tool("e1", "edit", { locations: [{ path: w.file("b.txt") }] }));
    expect(await planUndo(foldEvents(w.events), "", w.io)).toEqual({
      kind: "message",
      lines: [
        "no turn has edits that conch can undo: undo covers the files an agent writes through conch (fs/write_text_file)",
        "the agent's own tools edited `b.txt`: conch did not see those writes, so undo cannot put them back",
      ],
    });
  });
});
