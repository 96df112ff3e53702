import { afterEach, describe, expect, it } from "vitest";
import { cleanup } from "ink-testing-library";
import type { AuthMethod } from "@agentclientprotocol/sdk";
import { AuthPicker } from "../../../src/ui/components/auth-picker.js";
import { renderKeyed as render } from "../render-keyed.js";
import { KEY, plain, tick } from "../fake-session.js";

afterEach(() => cleanup());

const methods: AuthMethod[] = [
  { id: "a", name: "Agent login" },
  { id: "b", name: "Other login" },
];

function picker(onChoose: (id: string) => Promise<void> | void) {
  return render(
    <AuthPicker
      methods={methods}
      message="Authentication required"
      agentName="fake"
      agentCommand={{ command: "fake-agent", args: [] }}
      width={80}
      isActive
      onChoose={onChoose}
    />,
  );
}

describe("the login picker", () => {
  it("says its keys as the key table does", () => {
    expect(plain(picker(() => undefined).lastFrame())).toContain("↑↓ select · enter or a number to log in");
  });

  it("takes one choice while the login runs, and another after it failed", async () => {
    const chosen: string[] = [];
    let fail: () => void = () => undefined;
    const view = picker((id) => {
      chosen.push(id);
      return new Promise<void>((resolve) => (fail = resolve));
    });
    await tick();
    view.stdin.write(KEY.down);
    await tick();
    view.stdin.write(KEY.enter);
    view.stdin.write(KEY.enter);
    view.stdin.write("1");
    await tick();
    expect(chosen).toEqual(["b"]);
    fail();
    await tick();
    view.stdin.write("1");
    await tick();
    expect(chosen).toEqual(["b", "a"]);
  });
});
