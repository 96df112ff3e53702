import { safeLine, safeText } from "../../text/terminal-safe.js";
import { wrapRows } from "./text.js";

/** A field of the form as drawn (`decisions/question-form-state.ts`'s `FormField`). */
export interface FormField {
  label: string;
  description?: string;
  kind: string;
  choices: string[];
  required: boolean;
  name: string;
}

/** The form as drawn: its fields, what is entered, the focus (`fields.length` is the submit row) and an error. */
export interface FormState {
  fields: FormField[];
  values: Record<string, string | boolean | string[]>;
  focus: number;
  error?: string;
}

/** How a question form is drawn in the rows it has. */
export interface QuestionLayout {
  /** In its rounded border (with a row of padding each side). */
  framed: boolean;
  inner: number;
  /** The question's rows, cut to fit (its first row at least). */
  title: string[];
  /** The form rows shown: fields `from` to `to` (exclusive); `to` past the last field includes the submit row. */
  from: number;
  to: number;
  /** The key hint under the form. */
  hint: boolean;
  /** Not even the focused field fits beside the question: its description goes, and its choices are cut to this many around the chosen one. */
  choiceRows?: number;
}

/** What the form is laid out from. */
export interface QuestionLayoutInput {
  message: string;
  form: FormState;
  width: number;
  /** The key hint (with how many more wait) as one line, wrapped here to count its rows. */
  hint: string;
  /** Rows the form may take; none: all of it. */
  maxRows?: number;
}

/** Rows a field takes as `FieldRow` draws it: its label and value, its choices, its description while focused. */
export function fieldRowCount(field: FormField, value: FormState["values"][string], focused: boolean, inner: number): number {
  const label = `  ${safeLine(field.label)}${field.required ? " *" : ""}: `;
  const listed = field.kind === "choice" || field.kind === "multi";
  let n = listed ? wrapRows(label, inner).length : wrapRows(`${label}${safeLine(String(value))} `, inner).length;
  if (listed) for (const c of field.choices) n += wrapRows(`(•) ${safeLine(c)}`, inner - 4).length;
  if (focused && field.description) n += wrapRows(` ${safeLine(field.description)}`, inner).length;
  return n;
}

/** The fewest rows the form takes with its whole question and any one field shown (with a "more" row each side). */
export function questionNeed(message: string, form: FormState, width: number): number {
  const inner = Math.max(10, width - 2);
  const rows = form.fields.map((f) => fieldRowCount(f, form.values[f.name], true, inner));
  return wrapRows(`? ${safeText(message)}`, inner).length + Math.max(1, ...rows) + 2;
}

/**
 * The form laid out to fit its rows. The question comes first: what is asked is never cut off the
 * top. Each step gives up more: the full form; no border and no hint; the fields around the focused
 * one, with a row saying how many more are above or below; the question cut to its first rows.
 */
export function questionLayout(input: QuestionLayoutInput): QuestionLayout {
  const { form, width, maxRows } = input;
  const framedInner = Math.max(10, width - 4);
  const bareInner = Math.max(10, width - 2);
  const items = form.fields.length + 1;
  // Each row's count: fields, then the submit row with the error under it.
  const counts = (inner: number) => [
    ...form.fields.map((f, i) => fieldRowCount(f, form.values[f.name], form.focus === i, inner)),
    1 + (form.error ? wrapRows(form.error, inner).length : 0),
  ];
  const sum = (ns: number[]) => ns.reduce((a, b) => a + b, 0);
  const titleOf = (inner: number) => wrapRows(`? ${safeText(input.message)}`, inner);

  const framedTitle = titleOf(framedInner);
  const hintRows = wrapRows(input.hint, framedInner).length;
  const full: QuestionLayout = { framed: true, inner: framedInner, title: framedTitle, from: 0, to: items, hint: true };
  if (maxRows === undefined || 2 + framedTitle.length + sum(counts(framedInner)) + hintRows <= maxRows) return full;

  const title = titleOf(bareInner);
  const rows = counts(bareInner);
  const bare = (keep: string[], from: number, to: number): QuestionLayout => ({
    framed: false,
    inner: bareInner,
    title: keep,
    from,
    to,
    hint: false,
  });
  if (title.length + sum(rows) <= maxRows) return bare(title, 0, items);
  // The focused row, then the rows after it, then those before, while they fit with a "more" row each side.
  const focus = Math.min(form.focus, items - 1);
  const shown = (from: number, to: number) => sum(rows.slice(from, to)) + (from > 0 ? 1 : 0) + (to < items ? 1 : 0);
  const room = maxRows - title.length;
  let from = focus;
  let to = focus + 1;
  if (shown(from, to) <= room) {
    while (to < items && shown(from, to + 1) <= room) to++;
    while (from > 0 && shown(from - 1, to) <= room) from--;
    return bare(title, from, to);
  }
  // Not even the focused row beside the whole question: the question's first rows and the focused row.
  const keep = Math.max(1, maxRows - shown(from, to));
  const cut = bare(title.slice(0, keep), from, to);
  if (keep + shown(from, to) <= maxRows) return cut;
  // The focused field's label and as many of its choices as fit: at least one, the one it is on.
  const markers = shown(from, to) - rows[focus];
  return { ...cut, choiceRows: Math.max(1, maxRows - keep - markers - 1) };
}
