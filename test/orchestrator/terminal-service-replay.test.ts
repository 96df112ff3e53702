import { afterEach, describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/session/events.js";
import { RegistryTerminalService } from "../../src/orchestrator/terminals/terminal-service.js";

const services: RegistryTerminalService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.registry.dispose();
});

const update = (meta: Record<string, unknown>, sessionUpdate = "tool_call_update", history?: boolean): SessionEvent => ({
  type: "update",
  at: 0,
  notification: {
    sessionId: "s",
    update: { sessionUpdate, toolCallId: "c1", ...(sessionUpdate === "tool_call" ? { title: "x" } : {}), _meta: meta } as never,
  },
  ...(history ? { history } : {}),
});
const info = { terminal_info: { terminal_id: "c1", cwd: "/p" } };
const out = (data: string) => ({ terminal_output: { terminal_id: "c1", data } });

async function screenOf(service: RegistryTerminalService): Promise<string[]> {
  const t = service.registry.get("c1")!;
  await (t as { flush(): Promise<void> }).flush();
  return t.screen.snapshot({ tail: 10 }).map((l) => l.map((s) => s.text).join(""));
}

describe("a resumed session's command screens", () => {
  it("a replay that shows the command's terminal again (codex 2.x) replaces the screen kept from conch's log, not doubles it", async () => {
    const service = new RegistryTerminalService(() => undefined, "/tmp");
    services.push(service);
    // From conch's own log: the live run, killed after its first line.
    service.observe(update(info, "tool_call"));
    service.observe(update(out("tick\n")));
    // The agent's replay: the same command, its whole output, its exit.
    service.observe(update(info, "tool_call", true));
    service.observe(
      update({ ...out("tick\n"), terminal_exit: { terminal_id: "c1", exit_code: -1, signal: null } }, "tool_call_update", true),
    );
    expect((await screenOf(service)).filter(Boolean)).toEqual(["tick"]);
    expect(service.registry.get("c1")!.exitStatus).toEqual({ exitCode: -1, signal: null });
  });

  it("a replay without terminals (codex 0.16, claude) leaves the screen from the log as it was", async () => {
    const service = new RegistryTerminalService(() => undefined, "/tmp");
    services.push(service);
    service.observe(update(info, "tool_call"));
    service.observe(update(out("line 1\nline 2\n")));
    service.observe(update({}, "tool_call", true));
    expect((await screenOf(service)).filter(Boolean)).toEqual(["line 1", "line 2"]);
  });
});
