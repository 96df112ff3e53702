import type { UndoPlan } from "../../session/undo-plan.js";
import type { SessionPort } from "../session-port.js";

/** The undo prompt's answer: a confirmed plan's files put back (`applyUndo`); only a refusal or a failure is `show`n, what was done is a notice in the transcript. */
export function applyConfirmedUndo(
  port: SessionPort,
  plan: UndoPlan | null,
  apply: boolean,
  show: (text: string, tone: "error") => void,
): void {
  if (!plan || !apply) return;
  void port.applyUndo(plan).then(
    (outcome) => typeof outcome === "string" && show(outcome, "error"),
    (err: Error) => show(`undo failed: ${err.message}`, "error"),
  );
}
