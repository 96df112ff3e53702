import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/errors/conch-error.js";
import { exitCodeFor } from "../../src/print/print-result.js";

const clean = { error: null, denied: 0, timedOut: false, interrupted: false };

describe("a print run's exit code", () => {
  it("follows the prompt turn's stop reason", () => {
    expect(exitCodeFor("end_turn", clean)).toBe(EXIT.ok);
    expect(exitCodeFor("refusal", clean)).toBe(EXIT.refusal);
    expect(exitCodeFor("max_tokens", clean)).toBe(EXIT.maxTokens);
    expect(exitCodeFor("max_turn_requests", clean)).toBe(EXIT.maxTokens);
    expect(exitCodeFor("cancelled", clean)).toBe(EXIT.interrupted);
    expect(exitCodeFor(null, clean)).toBe(EXIT.failed);
  });

  it("an interrupt outranks a timeout, which outranks an error, which outranks a refused permission", () => {
    const all = { error: "agent exited with code 1", denied: 1, timedOut: true, interrupted: true };
    expect(exitCodeFor("end_turn", all)).toBe(EXIT.interrupted);
    expect(exitCodeFor("end_turn", { ...all, interrupted: false })).toBe(EXIT.timeout);
    expect(exitCodeFor("end_turn", { ...all, interrupted: false, timedOut: false })).toBe(EXIT.failed);
    expect(exitCodeFor("end_turn", { ...clean, denied: 1 })).toBe(EXIT.permissionRefused);
  });
});
