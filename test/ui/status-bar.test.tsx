import { describe, expect, it } from "vitest";
import { render } from "ink-testing-library";
import { StatusBar } from "../../src/ui/components/status-bar.js";
import { FakeSession } from "./fake-session.js";

const CWD = "/home/ada/src/github.com/example-org/a-rather-long-project-name";

function bar(width: number): string {
  const s = new FakeSession().open({
    cwd: CWD,
    configOptions: [{ type: "select", id: "model", name: "Model", currentValue: "haiku", options: [{ value: "haiku", name: "Haiku" }] }],
  });
  s.update({ sessionUpdate: "usage_update", used: 2_000, size: 200_000, cost: { amount: 0.01, currency: "USD" } });
  const view = render(<StatusBar state={s.state} agentName="fake" cwd={CWD} width={width} />);
  const out = view.lastFrame() ?? "";
  view.unmount();
  return out;
}

describe("status bar on a narrow terminal", () => {
  it("shows everything when it fits", () => {
    expect(bar(160)).toBe(`Fake Agent · Code (shift+tab) · Haiku · ctx 1% · $0.01 · ${CWD}`);
  });

  it("at 80 columns keeps the model and shortens the cwd to its last folder", () => {
    const out = bar(80);
    expect(out).toContain("Haiku");
    expect(out).toContain("…/a-rather-long-project-name");
    expect(out.length).toBeLessThanOrEqual(80);
  });

  it("drops the cwd before the model when even the short cwd does not fit", () => {
    const out = bar(50);
    expect(out).toBe("Fake Agent · Code (shift+tab) · Haiku");
  });
});
