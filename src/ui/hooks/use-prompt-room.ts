import { useMemo, useRef, type RefObject } from "react";
import type { DOMElement } from "ink";
import type { SessionState } from "../../session/state.js";
import { optionKeys } from "../decisions/permission-options.js";
import { initialForm } from "../decisions/question-form-state.js";
import { permissionNeed, SCREEN_SLACK } from "../render/permission-layout.js";
import { questionNeed } from "../render/question-layout.js";
import { requestViewOf } from "../render/request-view.js";
import { useMeasuredHeight } from "./use-measured-height.js";

/** What the prompts waiting for a person (a permission, a question) may take of the screen. */
export interface PromptRoom {
  /** The status line, the editor and the status bar give way: the prompt would not show what it asks beside them. */
  compact: boolean;
  /** The screen's rows as the prompts may count them: one more while `compact` (no margin above the chrome). */
  rows: number;
  /** What the rest of the chrome takes, without the permission prompt and the question, and without the question. */
  permissionRest: number;
  questionRest: number;
  /** Measure the permission block, the question block and the rows under them that give way. */
  permissionRef: RefObject<DOMElement | null>;
  questionRef: RefObject<DOMElement | null>;
  belowRef: RefObject<DOMElement | null>;
}

/** The screen, the chrome's height and who has the keys. */
export interface PromptRoomInput {
  state: SessionState;
  width: number;
  rows: number;
  chromeHeight: number;
  libsReady: boolean;
  focus: string;
}

/** The fewest rows the waiting prompts take with what they ask shown; 0 when none waits. A permission is drawn once the render libraries are in. */
function promptNeed(state: SessionState, width: number, libsReady: boolean): number {
  let need = 0;
  const permission = state.permissions[0];
  if (permission && libsReady) {
    const labels = optionKeys(permission.options).map((k) => [k.digit, k.letter].filter(Boolean).join(" "));
    need += permissionNeed(requestViewOf(state, permission), permission.options, labels, width);
  }
  const question = state.questions[0];
  if (question && question.request.mode !== "url") need += questionNeed(question.request.message, initialForm(question.request), width);
  return need;
}

/**
 * The rows the waiting prompts have, and whether the chrome under them gives way: only while a
 * prompt has the keys (a person who chose to type has the editor) and would not show what it asks
 * beside that chrome. The decision reads what those rows took when last shown, so hiding them
 * does not undo it; a normal screen never hides them.
 */
export function usePromptRoom({ state, width, rows, chromeHeight, libsReady, focus }: PromptRoomInput): PromptRoom {
  const [permissionRef, permissionHeight] = useMeasuredHeight();
  const [questionRef, questionHeight] = useMeasuredHeight();
  const [belowRef, belowHeight] = useMeasuredHeight();
  const shown = useRef(0);
  if (belowHeight > 0) shown.current = belowHeight;
  // Laid out again when what waits, or the width, changes: not on every frame of a spinner.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const need = useMemo(() => promptNeed(state, width, libsReady), [state.permissions, state.questions, width, libsReady]);
  const others = chromeHeight - permissionHeight - questionHeight - belowHeight;
  const compact = need > 0 && (focus === "permission" || focus === "question") && rows - SCREEN_SLACK - others - shown.current < need;
  return {
    compact,
    rows: compact ? rows + 1 : rows,
    permissionRest: Math.max(0, chromeHeight - permissionHeight - questionHeight),
    questionRest: Math.max(0, chromeHeight - questionHeight),
    permissionRef,
    questionRef,
    belowRef,
  };
}
