import type { CreateElicitationRequest, ElicitationContentValue } from "@agentclientprotocol/sdk";

/** One field of an agent's form, read from its JSON schema property. */
export interface FormField {
  name: string;
  label: string;
  description?: string;
  kind: "text" | "number" | "integer" | "boolean" | "choice" | "multi";
  choices: string[];
  required: boolean;
}

/** What the person has entered so far, and where the cursor is. */
export interface FormState {
  fields: FormField[];
  values: Record<string, string | boolean | string[]>;
  /** Index of the focused field; `fields.length` is the submit row. */
  focus: number;
  /** For choice and multi fields: the highlighted choice. */
  choice: number;
  error?: string;
}

type Schema = { properties?: Record<string, Record<string, unknown>>; required?: string[] | null };

function choicesOf(prop: Record<string, unknown>): string[] {
  if (Array.isArray(prop.enum)) return prop.enum.map(String);
  if (Array.isArray(prop.oneOf)) return prop.oneOf.map((o) => String((o as { const?: unknown }).const ?? ""));
  const items = prop.items as Record<string, unknown> | undefined;
  if (items && Array.isArray(items.enum)) return items.enum.map(String);
  if (items && Array.isArray(items.anyOf)) return items.anyOf.map((o) => String((o as { const?: unknown }).const ?? ""));
  return [];
}

/** The fields of a form-mode question; an unknown property type becomes a text field. */
export function fieldsOf(request: CreateElicitationRequest): FormField[] {
  const schema = ((request as { requestedSchema?: Schema }).requestedSchema ?? {}) as Schema;
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, prop]) => {
    const choices = choicesOf(prop);
    const type = prop.type;
    const kind: FormField["kind"] =
      type === "boolean"
        ? "boolean"
        : type === "number"
          ? "number"
          : type === "integer"
            ? "integer"
            : type === "array"
              ? "multi"
              : choices.length
                ? "choice"
                : "text";
    return {
      name,
      label: typeof prop.title === "string" ? prop.title : name,
      description: typeof prop.description === "string" ? prop.description : undefined,
      kind,
      choices,
      required: required.has(name),
    };
  });
}

/** A fresh form with the schema's defaults filled in. */
export function initialForm(request: CreateElicitationRequest): FormState {
  const fields = fieldsOf(request);
  const schema = ((request as { requestedSchema?: Schema }).requestedSchema ?? {}) as Schema;
  const values: FormState["values"] = {};
  for (const f of fields) {
    const def = schema.properties?.[f.name]?.default;
    if (f.kind === "boolean") values[f.name] = def === true;
    else if (f.kind === "multi") values[f.name] = Array.isArray(def) ? def.map(String) : [];
    else if (f.kind === "choice") values[f.name] = typeof def === "string" ? def : (f.choices[0] ?? "");
    else values[f.name] = def === undefined || def === null ? "" : String(def);
  }
  return { fields, values, focus: 0, choice: 0 };
}

/** Keys the form understands, already decoded from Ink's input. */
export type FormKey =
  | { type: "next" }
  | { type: "prev" }
  | { type: "up" }
  | { type: "down" }
  | { type: "toggle" }
  | { type: "type"; text: string }
  | { type: "backspace" };

/** Applies one key to the form. Pure. */
export function formReducer(state: FormState, key: FormKey): FormState {
  const field = state.fields[state.focus];
  const set = (v: FormState["values"][string]) => ({ ...state, error: undefined, values: { ...state.values, [field.name]: v } });
  switch (key.type) {
    case "next":
      return { ...state, focus: Math.min(state.fields.length, state.focus + 1), choice: 0, error: undefined };
    case "prev":
      return { ...state, focus: Math.max(0, state.focus - 1), choice: 0, error: undefined };
    case "up":
    case "down": {
      if (!field || (field.kind !== "choice" && field.kind !== "multi"))
        return formReducer(state, { type: key.type === "up" ? "prev" : "next" });
      const n = field.choices.length;
      const choice = (state.choice + (key.type === "up" ? n - 1 : 1)) % Math.max(1, n);
      return field.kind === "choice" ? { ...set(field.choices[choice]), choice } : { ...state, choice };
    }
    case "toggle": {
      if (!field) return state;
      if (field.kind === "boolean") return set(!state.values[field.name]);
      if (field.kind === "multi") {
        const cur = state.values[field.name] as string[];
        const c = field.choices[state.choice];
        return set(cur.includes(c) ? cur.filter((x) => x !== c) : [...cur, c]);
      }
      return field.kind === "text" ? set(`${state.values[field.name]} `) : state;
    }
    case "type": {
      if (!field || field.kind === "boolean" || field.kind === "choice" || field.kind === "multi") return state;
      // Typed fast, or pasted, text comes with its Enter in one read: the Enter moves on, as it would alone,
      // and no control character goes into what the agent gets.
      const text = key.text.replace(/[\u0000-\u001f\u007f]/g, "");
      const typed = text ? set(`${state.values[field.name]}${text}`) : state;
      return /[\r\n]$/.test(key.text) ? formReducer(typed, { type: "next" }) : typed;
    }
    case "backspace":
      if (!field || typeof state.values[field.name] !== "string") return state;
      return set((state.values[field.name] as string).slice(0, -1));
  }
}

/** The content to send back, or an error message naming the field that is not right yet. */
export function formContent(state: FormState): { content: Record<string, ElicitationContentValue> } | { error: string } {
  const content: Record<string, ElicitationContentValue> = {};
  for (const f of state.fields) {
    const v = state.values[f.name];
    if (f.kind === "number" || f.kind === "integer") {
      if (v === "") {
        if (f.required) return { error: `${f.label} is required` };
        continue;
      }
      const n = Number(v);
      if (!Number.isFinite(n) || (f.kind === "integer" && !Number.isInteger(n)))
        return { error: `${f.label} must be ${f.kind === "integer" ? "a whole number" : "a number"}` };
      content[f.name] = n;
    } else if (typeof v === "string") {
      if (v === "" && f.required) return { error: `${f.label} is required` };
      if (v !== "") content[f.name] = v;
    } else {
      content[f.name] = v;
    }
  }
  return { content };
}
