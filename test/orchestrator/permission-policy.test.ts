import type { PermissionOption, RequestPermissionRequest, ToolKind } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { answerByPolicy, PERMISSION_POLICIES } from "../../src/orchestrator/permission-policy.js";

const ALL_OPTIONS: PermissionOption[] = [
  { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
  { optionId: "proceed_always", name: "Always allow", kind: "allow_always" },
  { optionId: "cancel", name: "Reject", kind: "reject_once" },
  { optionId: "never", name: "Never", kind: "reject_always" },
];

function request(kind: ToolKind | undefined, options: PermissionOption[] = ALL_OPTIONS): RequestPermissionRequest {
  return { sessionId: "s1", toolCall: { toolCallId: "c1", title: "a call", ...(kind ? { kind } : {}) }, options };
}

const none = new Set<string>();
const optionOf = (answer: ReturnType<typeof answerByPolicy>) => answer?.option?.optionId;

describe("answering a permission request by policy", () => {
  it("ask leaves every request to the person", () => {
    for (const kind of ["read", "edit", "execute", undefined] as const) expect(answerByPolicy("ask", request(kind), none)).toBeUndefined();
  });

  it("deny refuses everything, with the one-time reject when there is one", () => {
    expect(answerByPolicy("deny", request("read"), none)).toEqual({ option: ALL_OPTIONS[2], denied: true });
    expect(answerByPolicy("deny", request("execute"), none)).toEqual({ option: ALL_OPTIONS[2], denied: true });
  });

  it("approve-reads allows read, search, think and fetch only", () => {
    for (const kind of ["read", "search", "think", "fetch"] as const) {
      expect(answerByPolicy("approve-reads", request(kind), none), kind).toEqual({ option: ALL_OPTIONS[0], denied: false });
    }
    for (const kind of ["edit", "delete", "move", "execute", "other", "switch_mode"] as const) {
      expect(answerByPolicy("approve-reads", request(kind), none), kind).toMatchObject({ denied: true });
    }
  });

  it("a call with no kind counts as `other`: not a read", () => {
    expect(answerByPolicy("approve-reads", request(undefined), none)).toMatchObject({ denied: true });
    expect(answerByPolicy("approve-all", request(undefined), none)).toMatchObject({ denied: false });
  });

  it("approve-all allows once, never always: nothing is remembered for later calls", () => {
    expect(optionOf(answerByPolicy("approve-all", request("execute"), none))).toBe("proceed_once");
  });

  it("chooses by option kind, never by id, and falls back to the other allow or reject kind", () => {
    const alwaysOnly: PermissionOption[] = [
      { optionId: "x1", name: "Yes, always", kind: "allow_always" },
      { optionId: "x2", name: "No, never", kind: "reject_always" },
    ];
    expect(optionOf(answerByPolicy("approve-all", request("edit", alwaysOnly), none))).toBe("x1");
    expect(optionOf(answerByPolicy("deny", request("edit", alwaysOnly), none))).toBe("x2");
  });

  it("an allowing policy refuses when the agent offers no allow option", () => {
    const rejectOnly: PermissionOption[] = [{ optionId: "no", name: "No", kind: "reject_once" }];
    expect(answerByPolicy("approve-all", request("read", rejectOnly), none)).toEqual({ option: rejectOnly[0], denied: true });
  });

  it("a refusal with no reject option to pick is still a refusal, with no option", () => {
    const allowOnly: PermissionOption[] = [{ optionId: "ok", name: "OK", kind: "allow_once" }];
    expect(answerByPolicy("deny", request("edit", allowOnly), none)).toEqual({ option: undefined, denied: true });
    expect(answerByPolicy("deny", request("edit", []), none)).toEqual({ option: undefined, denied: true });
  });

  it("a kind the person allowed always is allowed under every policy, preferring the always option", () => {
    const remembered = new Set(["execute"]);
    for (const policy of PERMISSION_POLICIES) {
      expect(answerByPolicy(policy, request("execute"), remembered), policy).toEqual({ option: ALL_OPTIONS[1], denied: false });
      // Other kinds are untouched by it.
      if (policy === "deny") expect(answerByPolicy(policy, request("edit"), remembered)).toMatchObject({ denied: true });
    }
  });

  it("a remembered kind with no allow option left falls through to the policy", () => {
    const rejectOnly: PermissionOption[] = [{ optionId: "no", name: "No", kind: "reject_once" }];
    expect(answerByPolicy("ask", request("execute", rejectOnly), new Set(["execute"]))).toBeUndefined();
    expect(answerByPolicy("deny", request("execute", rejectOnly), new Set(["execute"]))).toMatchObject({ denied: true });
  });
});
