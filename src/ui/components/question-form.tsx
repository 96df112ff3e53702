import React, { useEffect, useRef, useState } from "react";
import { Box, Text } from "ink";
import { useAnswerOnce } from "../hooks/use-answer-once.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { commandFor, footer } from "../shell/key-bindings.js";
import type { CreateElicitationResponse } from "@agentclientprotocol/sdk";
import type { PendingQuestion } from "../../session/state.js";
import { formContent, formReducer, initialForm, type FormField, type FormState } from "../decisions/question-form-state.js";
import { questionLayout } from "../render/question-layout.js";
import { color } from "../render/theme.js";
import { safeLine, safeText } from "../../text/terminal-safe.js";

/** Props of the question form. */
export interface QuestionFormProps {
  /** Pending questions, oldest first; the first is shown. */
  questions: PendingQuestion[];
  width: number;
  isActive: boolean;
  onAnswer(key: string, response: CreateElicitationResponse): void;
  /** Rows the form may take: on a small screen it gives up its border, its hint, then the fields away from the focused one, never its question. */
  maxRows?: number;
}

function FieldRow({
  field,
  value,
  focused,
  choice,
  maxChoices,
}: {
  field: FormField;
  value: FormState["values"][string];
  focused: boolean;
  choice: number;
  /** On a screen too small for the field: its choices around the chosen one, and no description. */
  maxChoices?: number;
}): React.ReactElement {
  const mark = focused ? "›" : " ";
  const label = `${safeLine(field.label)}${field.required ? " *" : ""}`;
  let shown: React.ReactNode;
  if (field.kind === "boolean") shown = <Text>{value ? "[x] yes" : "[ ] no"}</Text>;
  else if (field.kind === "choice" || field.kind === "multi") {
    const picked = field.kind === "multi" ? (value as string[]) : [value as string];
    shown = (
      <Box flexDirection="column">
        {windowOf(field.choices, focused ? choice : 0, maxChoices).map(([c, i]) => (
          <Text key={c} color={focused && i === choice ? color("focus") : undefined}>
            {picked.includes(c) ? "(•)" : "( )"} {safeLine(c)}
          </Text>
        ))}
      </Box>
    );
  } else
    shown = (
      <Text>
        {safeLine(String(value))}
        {focused ? <Text inverse> </Text> : null}
      </Text>
    );
  return (
    <Box flexDirection="column">
      <Box>
        <Text color={focused ? color("focus") : undefined}>
          {mark} {label}:{" "}
        </Text>
        {field.kind === "choice" || field.kind === "multi" ? null : shown}
      </Box>
      {field.kind === "choice" || field.kind === "multi" ? <Box marginLeft={4}>{shown}</Box> : null}
      {focused && field.description && maxChoices === undefined ? <Text dimColor> {safeLine(field.description)}</Text> : null}
    </Box>
  );
}

/** Up to `max` of the choices with their indexes, the one at `at` among them. */
function windowOf(choices: string[], at: number, max = choices.length): [string, number][] {
  const start = Math.max(0, Math.min(at - Math.floor((max - 1) / 2), choices.length - max));
  return choices.slice(start, start + max).map((c, i) => [c, start + i]);
}

/**
 * A question from the agent (`elicitation/create`): a form built from its schema, or a link for
 * URL mode, answered with the question's keys in the key table.
 */
export function QuestionForm({ questions, width, isActive, onAnswer, maxRows }: QuestionFormProps): React.ReactElement | null {
  const first = questions[0];
  const [form, setForm] = useState<FormState | undefined>(first ? initialForm(first.request) : undefined);
  const [formKey, setFormKey] = useState(first?.key);
  useEffect(() => {
    if (first && first.key !== formKey) {
      latest.current = initialForm(first.request);
      setForm(latest.current);
      setFormKey(first.key);
    }
  }, [first, formKey]);
  const isUrl = first?.request.mode === "url";
  // Keys can arrive faster than renders: read and write the latest form through a ref.
  const latest = useRef(form);
  latest.current = form;
  const update = (next: FormState) => {
    latest.current = next;
    setForm(next);
  };

  const once = useAnswerOnce();
  useKeypress(
    (input, key, raw) => {
      const form = latest.current;
      if (!first || !form) return false;
      const reply = (response: CreateElicitationResponse) => once.answer(first.key, () => onAnswer(first.key, response));
      const command = commandFor("question", input, key, raw);
      if (command === "decline-question") reply({ action: "decline" });
      // A link has nothing to fill in: Enter says it is done.
      else if (isUrl) {
        if (command !== "next-field" || !key.return) return false;
        reply({ action: "accept" });
      } else if (command === "next-field") {
        // Enter on the submit row (or a form with no fields) sends: the table's `submit-question`.
        if (key.return && (form.focus >= form.fields.length || form.fields.length === 0)) {
          const result = formContent(form);
          if ("error" in result) update({ ...form, error: result.error });
          else reply({ action: "accept", content: result.content });
        } else update(formReducer(form, { type: key.shift ? "prev" : "next" }));
      } else if (command === "move-selection") update(formReducer(form, { type: key.upArrow ? "up" : "down" }));
      else if (command === "toggle-choice") update(formReducer(form, { type: "toggle" }));
      else if (command === "type-answer")
        update(formReducer(form, key.backspace || key.delete ? { type: "backspace" } : { type: "type", text: input }));
      else return false;
      return true;
    },
    { isActive: isActive && first !== undefined },
  );

  if (!first || !form) return null;
  const url = (first.request as { url?: string }).url;
  const hint = `${footer(["next-field", "move-selection", "toggle-choice", "submit-question", "decline-question"])}${
    questions.length > 1 ? ` · ${questions.length - 1} more waiting` : ""
  }`;
  const layout = isUrl ? undefined : questionLayout({ message: first.request.message, form, width, hint, maxRows });
  const framed = layout?.framed ?? true;
  const from = layout?.from ?? 0;
  const to = layout?.to ?? form.fields.length + 1;
  const fieldsBelow = Math.max(0, form.fields.length - to);
  return (
    <Box
      flexDirection="column"
      width={width}
      paddingX={1}
      {...(framed ? { borderStyle: "round" as const, borderColor: color("focus") } : {})}
    >
      {/* Cut rows only when the form does not fit: else Ink wraps the question as it always did. */}
      <Text bold>{layout && !layout.framed ? layout.title.join("\n") : `? ${safeText(first.request.message)}`}</Text>
      {isUrl ? (
        <Box flexDirection="column">
          <Text color={color("link")}>{safeLine(url ?? "")}</Text>
          <Text dimColor>{`open the link, then press ${footer(["link-done", "decline-question"])}`}</Text>
        </Box>
      ) : (
        <Box flexDirection="column">
          {from > 0 ? <Text dimColor>{`  ⋮ ${from} more above`}</Text> : null}
          {form.fields.slice(from, to).map((f, i) => (
            <FieldRow
              key={f.name}
              field={f}
              value={form.values[f.name]}
              focused={form.focus === from + i}
              choice={form.choice}
              maxChoices={form.focus === from + i ? layout?.choiceRows : undefined}
            />
          ))}
          {to > form.fields.length ? (
            <Text color={form.focus >= form.fields.length ? color("focus") : undefined}>
              {form.focus >= form.fields.length ? "›" : " "} [ submit ]
            </Text>
          ) : (
            <Text dimColor>{`  ⋮ ${fieldsBelow ? `${fieldsBelow} more below` : "[ submit ] below"}`}</Text>
          )}
          {form.error && to > form.fields.length ? <Text color={color("error")}>{form.error}</Text> : null}
          {layout?.hint !== false ? <Text dimColor>{hint}</Text> : null}
        </Box>
      )}
    </Box>
  );
}
