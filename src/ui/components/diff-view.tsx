import React, { useMemo } from "react";
import { Box, Text } from "ink";
import { renderLibs } from "./render-libs.js";
import { color } from "./theme.js";

/** Props of a diff view. */
export interface DiffViewProps {
  /** Shown in the header as given; callers shorten it (relative to the session cwd). */
  path: string;
  /** Null or undefined: the file is new, every line is added. */
  oldText?: string | null;
  newText: string;
  width: number;
  /** Diff lines (hunk headers included) to show before "… N more lines"; unlimited when absent. */
  maxLines?: number;
}

/** One line of the unified diff as shown: a hunk header or a line with its old/new numbers. */
export type DiffLine =
  | { kind: "hunk"; text: string }
  | { kind: "context" | "added" | "removed"; text: string; oldNo?: number; newNo?: number };

/** A coloured unified diff with old and new line numbers, clipped at `maxLines`. */
export const DiffView = React.memo(function DiffView(props: DiffViewProps): React.ReactElement {
  const { path, oldText, newText, width } = props;
  const isNew = oldText === null || oldText === undefined;
  const lines = useMemo(() => diffLines(oldText ?? "", newText), [oldText, newText]);
  const added = lines.filter((l) => l.kind === "added").length;
  const removed = lines.filter((l) => l.kind === "removed").length;
  const max = props.maxLines ?? Infinity;
  const shown = lines.length > max ? lines.slice(0, Math.max(0, max)) : lines;
  const hidden = lines.length - shown.length;
  const numberWidth = String(Math.max(1, ...lines.map((l) => (l.kind === "hunk" ? 0 : Math.max(l.oldNo ?? 0, l.newNo ?? 0))))).length;

  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text bold>{path}</Text>
        {isNew ? <Text color={color("added")}>{" (new file)"}</Text> : null}
        <Text color={color("added")}>{` +${added}`}</Text>
        <Text color={color("removed")}>{` -${removed}`}</Text>
      </Text>
      {lines.length === 0 ? <Text dimColor>(no changes)</Text> : null}
      {shown.map((line, i) => (
        <DiffRow key={i} line={line} numberWidth={numberWidth} width={width} />
      ))}
      {hidden > 0 ? <Text dimColor>{`… ${hidden} more line${hidden === 1 ? "" : "s"}`}</Text> : null}
    </Box>
  );
});

function DiffRow({ line, numberWidth, width }: { line: DiffLine; numberWidth: number; width: number }) {
  if (line.kind === "hunk") {
    return (
      <Text color={color("hunk")} dimColor wrap="truncate-end">
        {line.text}
      </Text>
    );
  }
  const num = (n: number | undefined) => (n === undefined ? "" : String(n)).padStart(numberWidth);
  const sign = line.kind === "added" ? "+" : line.kind === "removed" ? "-" : " ";
  const role = line.kind === "added" ? "added" : line.kind === "removed" ? "removed" : undefined;
  const gutter = `${num(line.oldNo)} ${num(line.newNo)} ${sign} `;
  return (
    <Box flexDirection="row" width={width}>
      <Box flexShrink={0}>
        <Text color={role ? color(role) : undefined} dimColor={!role}>
          {gutter}
        </Text>
      </Box>
      <Text color={role ? color(role) : undefined}>{line.text === "" ? " " : line.text}</Text>
    </Box>
  );
}

/** The unified diff of two texts as numbered lines (3 lines of context around each change). */
export function diffLines(oldText: string, newText: string): DiffLine[] {
  const patch = renderLibs().structuredPatch("a", "b", oldText, newText, "", "", { context: 3 });
  const out: DiffLine[] = [];
  for (const hunk of patch.hunks) {
    out.push({ kind: "hunk", text: `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@` });
    let oldNo = hunk.oldStart;
    let newNo = hunk.newStart;
    for (const raw of hunk.lines) {
      const mark = raw[0];
      const text = raw.slice(1).replace(/\t/g, "    ").replace(/\r$/, "");
      if (mark === "+") out.push({ kind: "added", text, newNo: newNo++ });
      else if (mark === "-") out.push({ kind: "removed", text, oldNo: oldNo++ });
      else if (mark === " ") out.push({ kind: "context", text, oldNo: oldNo++, newNo: newNo++ });
      // "\ No newline at end of file" is noise in a terminal view.
    }
  }
  return out;
}

/** GNU numbering for the header: an empty range names the line before it ("-0,0" for a new file). */
function range(start: number, count: number): string {
  return `${count === 0 ? start - 1 : start},${count}`;
}
