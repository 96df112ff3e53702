import React, { useState } from "react";
import { Box, Text } from "ink";
import { useAnswerOnce } from "../hooks/use-answer-once.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { commandFor, footer } from "../shell/key-bindings.js";
import type { AuthMethod } from "@agentclientprotocol/sdk";
import { planAuth, shellLine } from "../../agents/auth-methods.js";
import type { AgentCommand } from "../../agents/agent-process.js";
import { color } from "../render/theme.js";
import { safeLine, safeText } from "../../text/terminal-safe.js";

/** Props of the login picker. */
export interface AuthPickerProps {
  methods: AuthMethod[];
  /** Why the agent asked (its error message). */
  message: string;
  agentName: string;
  agentCommand: AgentCommand;
  width: number;
  isActive: boolean;
  /** Starts the login; while its promise is pending, a second choice is not taken. */
  onChoose(methodId: string): Promise<void> | void;
}

/** The agent wants a login before it opens a session: its methods, chosen with ↑↓ + Enter or a digit. */
export function AuthPicker(props: AuthPickerProps): React.ReactElement {
  const { methods, width, isActive, onChoose } = props;
  const [cursor, setCursor] = useState(0);
  const plans = methods.map((m) => planAuth(m, props.agentCommand));
  const once = useAnswerOnce();
  // The login is one answer while it runs; a failed one leaves the picker up to choose again.
  const choose = (i: number) => plans[i] && once.answer(methods, () => onChoose(plans[i].id));
  useKeypress(
    (input, key, raw) => {
      const command = commandFor("auth", input, key, raw);
      if (command === "move-selection") setCursor((c) => (c + (key.upArrow ? -1 : 1) + plans.length) % plans.length);
      else if (command === "choose-login") choose(key.return ? cursor : Number(input) - 1);
      else return false;
      return true;
    },
    { isActive },
  );
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={color("warning")} width={width} paddingX={1}>
      <Text bold>{safeLine(props.agentName)} needs you to log in</Text>
      <Text dimColor>{safeText(props.message)}</Text>
      {plans.map((p, i) => (
        <Box key={p.id} flexDirection="column">
          <Text color={i === cursor ? color("focus") : undefined}>
            {i === cursor ? "›" : " "} {i + 1}. {p.label}
            {p.description ? <Text dimColor> — {safeLine(p.description)}</Text> : null}
          </Text>
          {p.kind === "terminal" ? (
            <Text
              dimColor
            >{` runs ${safeLine(shellLine(p.command))} in a terminal pane (${footer([["focus-terminal", "to type into it"]])})`}</Text>
          ) : null}
          {p.kind === "env_var" ? <Text dimColor> set {p.vars.join(", ")} and start conch again</Text> : null}
        </Box>
      ))}
      <Text dimColor>{footer([["move-selection", "select"], "choose-login"])}</Text>
    </Box>
  );
}
