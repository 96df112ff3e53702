import { ControlServer, type ControlTarget } from "../control/control-server.js";
import type { Orchestrator } from "../orchestrator/orchestrator.js";
import type { SessionRecorder } from "../orchestrator/record/session-recorder.js";
import { resolveStateDir } from "../store/state-dir.js";

/** The orchestrator's intents as the control socket drives them. */
export function targetOf(orch: Orchestrator): ControlTarget {
  return {
    get state() {
      return orch.state;
    },
    dispatch: (ev) => orch.dispatch(ev),
    answerPermission: (key, optionId, via) => orch.answerPermission(key, optionId, via),
    answerQuestion: (key, response) => orch.answerQuestion(key, response),
    send: (text, blocks) => orch.send(text, blocks),
    sendNow: (text, blocks) => orch.sendNow(text, blocks),
    steer: (text, blocks) => orch.steer(text, blocks),
    detach: () => orch.detach(),
    cancel: () => orch.cancel(),
    editQueued: (id, text) => orch.editQueued(id, text),
    removeQueued: (id) => orch.removeQueued(id),
    runCommand: (line) => orch.runCommand(line),
    stopTask: (id) => orch.stopTask(id),
    listTasks: () => orch.listTasks(),
    typeInto: (id, data) => orch.terminals?.write(id, data),
  };
}

/**
 * Opens this conch's control socket for `conch attach --write` and names it in the session index.
 * A socket that cannot be opened is a warning in the session, never a reason not to run it.
 */
export async function startControl(
  orch: Orchestrator,
  recorder: SessionRecorder,
  root = resolveStateDir(),
): Promise<ControlServer | undefined> {
  try {
    const server = await ControlServer.start(targetOf(orch), root);
    recorder.setControl(server.endpoint.socketPath);
    return server;
  } catch (err) {
    orch.dispatch({
      type: "notice",
      level: "warning",
      text: `conch attach --write cannot reach this session: ${(err as Error).message}`,
    });
    return undefined;
  }
}
