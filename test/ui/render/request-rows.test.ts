import { beforeAll, describe, expect, it } from "vitest";
import type { PendingPermission } from "../../../src/session/state.js";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { requestRows } from "../../../src/ui/render/request-rows.js";
import { requestViewOf } from "../../../src/ui/render/request-view.js";
import { CLAUDE_S3, permissionFromTrace, stateAt } from "../components/fixtures.js";
import { plainRows } from "./plain-rows.js";

beforeAll(() => loadRenderLibs());

const notes = ["# Demo notes", "", "Lines added by the conch demo agent.", "- conch demo edit #1"].join("\n");

/** A request to append one line to a four-line file. */
function appendRequest(): PendingPermission {
  const request = {
    sessionId: "s1",
    toolCall: {
      toolCallId: "e1",
      title: "Edit demo-notes.md",
      kind: "edit" as const,
      content: [
        { type: "diff" as const, path: "/tmp/project/demo-notes.md", oldText: `${notes}\n`, newText: `${notes}\n- conch demo edit #2\n` },
      ],
    },
    options: [{ optionId: "y", name: "Allow", kind: "allow_once" as const }],
  };
  return { key: "k1", toolCallId: "e1", options: request.options, request, askedAt: 0 };
}

describe("a permission request's rows when space is short", () => {
  const s3 = stateAt(CLAUDE_S3, (e) => e.type === "permission_asked");

  it("with room, the changed line comes with three lines of context", () => {
    const rows = plainRows(requestRows(requestViewOf(s3, appendRequest()), 46)).split("\n");
    expect(rows.filter((r) => /^\d \d( |$)/.test(r))).toHaveLength(3);
    expect(rows.some((r) => r.includes("+ - conch demo edit #2"))).toBe(true);
  });

  it("gives up the context first: the line being approved is always there", () => {
    for (const max of [8, 6, 5, 4, 3]) {
      const rows = plainRows(requestRows(requestViewOf(s3, appendRequest()), 46, max)).split("\n");
      expect(
        rows.some((r) => r.includes("+ - conch demo edit #2")),
        `${max}: ${rows.join("\n")}`,
      ).toBe(true);
      if (max >= 5) expect(rows.length).toBeLessThanOrEqual(max);
    }
  });

  it("claude's Edit request is an excerpt: its lines carry no made-up numbers", () => {
    const rows = plainRows(requestRows(requestViewOf(s3, permissionFromTrace(CLAUDE_S3, 0)), 46)).split("\n");
    expect(rows).toContain("hello.txt +1 -1 · line not given");
    expect(rows).toContain("- line two");
    expect(rows).toContain("+ line 2 (edited by the fake model)");
    expect(rows.join("\n")).not.toContain("@@");
  });
});
