import React from "react";
import { Box, Text } from "ink";
import { color, type ColorRole } from "./theme.js";

/** Props of a notice. */
export interface NoticeViewProps {
  level: "info" | "warning" | "error";
  text: string;
  width: number;
}

const LOOK: Record<NoticeViewProps["level"], { icon: string; role: ColorRole }> = {
  info: { icon: "•", role: "info" },
  warning: { icon: "!", role: "warning" },
  error: { icon: "✗", role: "error" },
};

/** A message from conch itself (agent exited, permission withdrawn, ...), coloured by level. */
export const NoticeView = React.memo(function NoticeView({ level, text, width }: NoticeViewProps): React.ReactElement {
  const look = LOOK[level] ?? LOOK.info;
  return (
    <Box flexDirection="row" width={width}>
      <Box width={2} flexShrink={0}>
        <Text color={color(look.role)} bold>
          {look.icon}
        </Text>
      </Box>
      <Text color={color(look.role)} dimColor={level === "info"}>
        {text}
      </Text>
    </Box>
  );
});
