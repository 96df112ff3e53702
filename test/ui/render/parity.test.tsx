import React from "react";
import { beforeAll, describe, expect, it } from "vitest";
import { loadRenderLibs } from "../../../src/ui/components/render-libs.js";
import { render } from "ink-testing-library";
import stripAnsi from "strip-ansi";
import { TranscriptItemView } from "../../../src/ui/components/transcript-item.js";
import { itemRows } from "../../../src/ui/render/item-rows.js";
import { finalState } from "../components/fixtures.js";

const TRACES = [
  "claude-agent-acp-0.23.1/s1-text.jsonl",
  "claude-agent-acp-0.23.1/s2-bash-permission.jsonl",
  "claude-agent-acp-0.23.1/s2-bash-permission.terminal_output.jsonl",
  "claude-agent-acp-0.23.1/s3-edit-diff.jsonl",
  "claude-agent-acp-0.23.1/s7-todowrite-plan.jsonl",
  "claude-agent-acp-0.100.0/s4-background-bash.jsonl",
  "codex-acp-0.16.0/c2.jsonl",
  "codex-acp-0.16.0/c3.jsonl",
  "codex-acp-0.16.0/c4.jsonl",
  "gemini-cli-0.61.0/g1.jsonl",
  "gemini-cli-0.61.0/g3.jsonl",
  "gemini-cli-0.61.0/g6.jsonl",
  "opencode-1.18.33/c-edit-write.jsonl",
  "opencode-1.18.33/h-markdown-output.jsonl",
];

const clean = (lines: string[]) => lines.map((l) => stripAnsi(l).replace(/\s+$/, "")).join("\n").replace(/\n+$/, "");

beforeAll(() => loadRenderLibs());

describe("item rows draw what the Ink components draw", () => {
  for (const trace of TRACES) {
    for (const width of [100, 40]) {
      it(`${trace} at ${width} columns`, () => {
        const state = finalState(trace);
        for (const item of state.items) {
          const view = render(<TranscriptItemView item={item} state={state} width={width} live={false} />);
          const ink = clean((view.lastFrame() ?? "").split("\n"));
          view.unmount();
          const rows = clean(itemRows(item, { state, width }));
          expect(rows, `${item.kind} ${item.id}`).toBe(ink);
        }
      });
    }
  }
});
