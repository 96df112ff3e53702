import React, { useRef, useState } from "react";
import { Box, Text, useInput } from "ink";
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
  onChoose(methodId: string): void;
}

/** The agent wants a login before it opens a session: its methods, chosen with ↑↓ + Enter or a digit. */
export function AuthPicker(props: AuthPickerProps): React.ReactElement {
  const { methods, width, isActive, onChoose } = props;
  const [cursor, setCursor] = useState(0);
  const chosen = useRef(false);
  const plans = methods.map((m) => planAuth(m, props.agentCommand));
  const choose = (i: number) => {
    if (!plans[i] || chosen.current) return;
    chosen.current = true;
    onChoose(plans[i].id);
    // A failed login lets the person choose again.
    setTimeout(() => (chosen.current = false), 500);
  };
  useInput(
    (input, key) => {
      if (key.upArrow) setCursor((c) => (c - 1 + plans.length) % plans.length);
      else if (key.downArrow) setCursor((c) => (c + 1) % plans.length);
      else if (key.return) choose(cursor);
      else if (/^[1-9]$/.test(input)) choose(Number(input) - 1);
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
            <Text dimColor> runs {safeLine(shellLine(p.command))} in a terminal pane (ctrl-t to type into it)</Text>
          ) : null}
          {p.kind === "env_var" ? <Text dimColor> set {p.vars.join(", ")} and start conch again</Text> : null}
        </Box>
      ))}
      <Text dimColor>↑↓ select · enter or a number to log in</Text>
    </Box>
  );
}
