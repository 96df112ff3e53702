import type { McpServer } from "@agentclientprotocol/sdk";
import { capDepth, NESTED_TOO_DEEP } from "../store/json-depth.js";

/** What a secret is replaced by. */
const REDACTED = "[redacted]";
/** What replaces a value nested deeper than {@link MAX_REDACT_DEPTH}. */
export const TOO_DEEP = NESTED_TOO_DEEP;
/**
 * How deep the redacted copy goes. Real messages nest a dozen levels; a hostile one nested 100k
 * deep would otherwise take the walk (and JSON.stringify after it) past the call stack.
 */
export const MAX_REDACT_DEPTH = 100;

/** Keys whose values are secrets wherever they appear. */
const SECRET_KEY = /(?:token|secret|passw|pwd|api[_-]?key|apikey|authorization|credential|cookie|private[_-]?key|access[_-]?key)/i;

/** Values that look like credentials even under an innocent key or in free text. */
const TOKEN_SHAPES = [
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{8,}/g, // OpenAI, Anthropic
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, // GitHub
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bAIza[0-9A-Za-z_-]{20,}/g, // Google
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key id
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, // JWT
];
/** `Bearer abc…`, `Basic abc…`: keep the scheme, drop the credential. */
const AUTH_SCHEME = /\b(Bearer|Basic|Token)(\s+)(?!\[redacted\])[A-Za-z0-9._~+/=-]{8,}/gi;
/** `api_key=…`, `"password": "…"`, `GITHUB_TOKEN: …` in free text. */
const SECRET_ASSIGNMENT = new RegExp(
  `([A-Za-z0-9_.-]*${SECRET_KEY.source}[A-Za-z0-9_.-]*)(["']?\\s*[:=]\\s*["']?(?:(?:Bearer|Basic|Token)\\s+)?)(?!\\[redacted\\]|(?:Bearer|Basic|Token)\\s+\\[redacted\\])[^\\s"',;&]+`,
  "gi",
);
/** A long high-entropy value after `=` (a query string, an env dump, `--flag=value`). */
const LONG_VALUE_AFTER_EQUALS = /=(?=[A-Za-z0-9+/_-]*\d)(?=[A-Za-z0-9+/_-]*[A-Za-z])[A-Za-z0-9+/_-]{32,}={0,2}/g;
/** `scheme://user:password@host`. */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:)[^/\s@]+@/gi;
/** A command-line flag that names a secret: the value is what follows it, or what follows its `=`. */
const SECRET_FLAG = new RegExp(`^--?[A-Za-z0-9_-]*${SECRET_KEY.source}[A-Za-z0-9_-]*$`, "i");
const SECRET_FLAG_WITH_VALUE = new RegExp(`^(--?[A-Za-z0-9_-]*${SECRET_KEY.source}[A-Za-z0-9_-]*=).+$`, "i");

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Whether a value conch passes to an agent is worth hunting for in its output: anything under a
 * secret-looking name, and elsewhere only what looks like a credential (long, mixed letters and
 * digits, not a path), so `MODE=fast` or a config directory does not blank out every trace.
 */
function isWorthRedacting(value: string, name: string): boolean {
  if (value.length < 4) return false;
  if (SECRET_KEY.test(name)) return true;
  if (TOKEN_SHAPES.some((shape) => new RegExp(shape.source).test(value))) return true;
  return value.length >= 16 && !/\s/.test(value) && !/^[/~.]/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value);
}

/**
 * The values conch itself hands an agent that may be secrets: its own env, and the MCP servers'
 * env values, header values and secret-flag arguments. Header values are always taken: an HTTP
 * MCP server's headers are where its credentials live.
 */
export function secretsPassedToAgent(env: Record<string, string> | undefined, mcpServers: readonly McpServer[] = []): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(env ?? {})) if (isWorthRedacting(value, name)) found.push(value);
  for (const server of mcpServers) {
    if ("headers" in server) {
      for (const h of server.headers) if (h.value.length >= 4) found.push(h.value.replace(/^(Bearer|Basic|Token)\s+/i, ""));
    }
    if ("env" in server) for (const e of server.env) if (isWorthRedacting(e.value, e.name)) found.push(e.value);
    if ("args" in server) {
      server.args.forEach((arg, i) => {
        const withValue = SECRET_FLAG_WITH_VALUE.exec(arg);
        if (withValue) found.push(arg.slice(withValue[1].length));
        else if (SECRET_FLAG.test(arg) && i + 1 < server.args.length) found.push(server.args[i + 1]);
      });
    }
  }
  return [...new Set(found.filter((v) => v.length >= 4))];
}

/**
 * Takes secrets out of what conch writes to files people attach to bug reports (traces, agent
 * logs): values under secret-looking keys, `{name, value}` env and header pairs, the values of
 * secret flags in argument lists, credential-shaped strings anywhere, and the exact values conch
 * itself passed to the agent (`known`) wherever they turn up.
 */
export class Redactor {
  private readonly known?: RegExp;

  constructor(known: Iterable<string> = []) {
    const values = [...new Set(known)].filter((v) => v.length >= 4).sort((a, b) => b.length - a.length);
    if (values.length) this.known = new RegExp(values.map(escapeRegExp).join("|"), "g");
  }

  /** A line or block of free text (an agent's stderr) with its secrets replaced. */
  text(s: string): string {
    let out = this.known ? s.replace(this.known, REDACTED) : s;
    for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED);
    out = out.replace(SECRET_ASSIGNMENT, `$1$2${REDACTED}`);
    out = out.replace(AUTH_SCHEME, `$1$2${REDACTED}`);
    out = out.replace(URL_PASSWORD, `$1${REDACTED}@`);
    return out.replace(LONG_VALUE_AFTER_EQUALS, `=${REDACTED}`);
  }

  /**
   * A copy of a JSON value with its secrets replaced; the input is never changed. What is nested
   * deeper than {@link MAX_REDACT_DEPTH} becomes a marker first, so the walk below stays shallow.
   */
  json<T>(value: T): T {
    return this.walk(capDepth(value, MAX_REDACT_DEPTH), "") as T;
  }

  private walk(value: unknown, key: string): unknown {
    if (typeof value === "string") return key && SECRET_KEY.test(key) ? REDACTED : this.text(value);
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) {
      return value.map((item, i) => {
        // `["--api-key", "abc"]`: the value after a secret flag is a secret, whatever it looks like.
        if (typeof item !== "string") return this.walk(item, key);
        if (i > 0 && typeof value[i - 1] === "string" && SECRET_FLAG.test(value[i - 1] as string)) return REDACTED;
        if (SECRET_FLAG_WITH_VALUE.test(item)) return item.replace(SECRET_FLAG_WITH_VALUE, `$1${REDACTED}`);
        return this.walk(item, key);
      });
    }
    const obj = value as Record<string, unknown>;
    // {name: "API_KEY", value: "…"} pairs: MCP env and headers. Every header value is a secret.
    const pairSecret = typeof obj.name === "string" && "value" in obj && (SECRET_KEY.test(obj.name) || key === "headers");
    // Changed in place: `value` is already capDepth's private copy.
    for (const [k, v] of Object.entries(obj)) obj[k] = pairSecret && k === "value" ? REDACTED : this.walk(v, k);
    return obj;
  }
}

const shapesOnly = new Redactor();

/** {@link Redactor.json} with no known values: key names and credential shapes only. */
export function redactSecrets<T>(value: T): T {
  return shapesOnly.json(value);
}
