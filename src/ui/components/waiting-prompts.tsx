import React from "react";
import { Box } from "ink";
import type { CreateElicitationResponse } from "@agentclientprotocol/sdk";
import type { SessionState } from "../../session/state.js";
import type { PromptRoom } from "../hooks/use-prompt-room.js";
import { SCREEN_SLACK } from "../render/permission-layout.js";
import { PermissionBlock } from "./permission-block.js";
import { QuestionForm } from "./question-form.js";

/** Props of the waiting prompts. */
export interface WaitingPromptsProps {
  state: SessionState;
  width: number;
  /** The rows they have (`usePromptRoom`). */
  room: PromptRoom;
  /** Rows of live tail kept above a permission prompt when it fits beside them. */
  live: number;
  libsReady: boolean;
  focus: string;
  answerPermission(key: string, optionId: string | null): void;
  answerQuestion(key: string, response: CreateElicitationResponse): void;
}

/**
 * The agent's permission request and its question, each in the rows the rest of the chrome leaves
 * it: on a small screen neither has what it asks cut off the top.
 */
export function WaitingPrompts({ state, width, room, live, libsReady, focus, ...answer }: WaitingPromptsProps): React.ReactElement {
  return (
    <>
      {state.permissions.length > 0 && libsReady ? (
        <PermissionBlock
          state={state}
          width={width}
          rows={room.rows}
          rest={room.permissionRest}
          live={live}
          isActive={focus === "permission"}
          onAnswer={answer.answerPermission}
          blockRef={room.permissionRef}
        />
      ) : null}
      {state.questions.length > 0 ? (
        <Box ref={room.questionRef} flexDirection="column">
          <QuestionForm
            questions={state.questions}
            width={width}
            maxRows={Math.max(1, room.rows - room.questionRest - SCREEN_SLACK)}
            isActive={focus === "question"}
            onAnswer={answer.answerQuestion}
          />
        </Box>
      ) : null}
    </>
  );
}
