/** The machine-specific values the traces replace with `${…}` placeholders. */
export interface PlaceholderValues {
  /** The session's cwd; `${PROJECT}`, and `${PROJECT_ESCAPED}` derived from it. */
  project: string;
  /** `${HOME}`. */
  home: string;
  /** `${TMPDIR}`. */
  tmpdir: string;
}

const PLACEHOLDER = /\$\{(PROJECT_ESCAPED|PROJECT|HOME|TMPDIR)\}/g;

/** The directory-name form Claude Code uses for a project path (`/a/b.c` → `-a-b-c`). */
export function escapeProjectPath(project: string): string {
  return project.replace(/[/.]/g, "-");
}

/** Replace every placeholder in one string; a single pass, so substituted text is never re-expanded. */
export function substituteInString(text: string, values: PlaceholderValues): string {
  return text.replace(PLACEHOLDER, (_match, name: string) => {
    switch (name) {
      case "PROJECT":
        return values.project;
      case "PROJECT_ESCAPED":
        return escapeProjectPath(values.project);
      case "HOME":
        return values.home;
      default:
        return values.tmpdir;
    }
  });
}

/**
 * Replace placeholders in every string (keys included) of a parsed JSON value.
 * Works on parsed values rather than raw text so a path with `"` or `\` stays valid JSON.
 */
export function substitutePlaceholders<T>(value: T, values: PlaceholderValues): T {
  return substituteValue(value, values) as T;
}

function substituteValue(value: unknown, values: PlaceholderValues): unknown {
  if (typeof value === "string") return substituteInString(value, values);
  if (Array.isArray(value)) return value.map((item) => substituteValue(item, values));
  if (typeof value === "object" && value !== null) {
    // fromEntries defines properties, so a "__proto__" key stays data, as JSON.parse made it.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [substituteInString(key, values), substituteValue(item, values)]));
  }
  return value;
}
