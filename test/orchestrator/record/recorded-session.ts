import type { Orchestrator } from "../../../src/orchestrator/orchestrator.js";
import { SessionRecorder } from "../../../src/orchestrator/record/session-recorder.js";
import type { SessionEvent } from "../../../src/session/events.js";
import { writeAllSync } from "../../../src/store/private-fs.js";
import { SessionLogWriter } from "../../../src/store/session-log.js";
import { ensureStateDir, sessionLogPath } from "../../../src/store/state-dir.js";
import { tempDir } from "../../support/run-conch.js";
import { startWithFake } from "../fake-agent.js";

/** A disk that can fill up: while `full`, a write gets half its bytes out, then ENOSPC, as a real one does. */
export class Disk {
  full = false;
  writeAll = (fd: number, data: string): void => {
    if (!this.full) return writeAllSync(fd, data);
    writeAllSync(fd, data.slice(0, Math.floor(data.length / 2)));
    throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
  };
  fsync = (): void => {
    if (this.full) throw Object.assign(new Error("ENOSPC: no space left on device, fsync"), { code: "ENOSPC" });
  };
}

/** An orchestrator over a fake agent whose recorder writes to `disk`, wired the way session-setup wires it. */
export async function recordedSession(disk = new Disk()) {
  const root = ensureStateDir(tempDir("conch-state-"));
  const recorder = new SessionRecorder({
    agent: "fake",
    agentCommand: ["fake"],
    cwd: "/tmp",
    root,
    openLog: (id, r) => SessionLogWriter.open<SessionEvent>(sessionLogPath(id, r), disk),
  });
  let orch: Orchestrator | undefined;
  recorder.attach(
    () => orch!.state,
    (level, text) => orch!.dispatch({ type: "notice", level, text }),
  );
  const started = await startWithFake({ sink: recorder });
  orch = started.orch;
  return { root, recorder, orch: started.orch, agent: started.agent, disk };
}
