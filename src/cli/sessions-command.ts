import path from "node:path";
import { deleteSession, findSession, listSessions, type SessionRecord } from "../store/session-index.js";
import type { Command } from "./parse-args.js";

/** "3m ago", "2h ago", "5d ago". */
export function age(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}

/** Lines of a session table for a person. */
export function formatSessions(records: SessionRecord[], now = Date.now()): string {
  if (records.length === 0) return "no sessions yet: start one with `conch`";
  const rows = records.map((r) => [r.id, (r.title ?? "(untitled)").slice(0, 48), r.agent, r.cwd, age(r.updatedAt, now)]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i].length), ["ID", "TITLE", "AGENT", "CWD"][i].length));
  const line = (row: string[]) => row.map((c, i) => (i < 4 ? c.padEnd(widths[i]) : c)).join("  ");
  return [line(["ID", "TITLE", "AGENT", "CWD", "UPDATED"]), ...rows.map(line)].join("\n");
}

/** `conch sessions` and `conch sessions delete <id>`. */
export async function runSessionsCommand(cmd: Extract<Command, { kind: "sessions" }>): Promise<number> {
  if (cmd.action === "delete") {
    const found = await findSession(cmd.id!);
    if (!("match" in found)) {
      process.stderr.write(`conch: no session ${cmd.id}${"ambiguous" in found ? " (ambiguous prefix)" : ""}\n`);
      return 4;
    }
    try {
      await deleteSession(found.match.id);
    } catch (err) {
      process.stderr.write(`conch: ${(err as Error).message}\n`);
      return 1;
    }
    process.stdout.write(`deleted session ${found.match.id}\n`);
    return 0;
  }
  const all = await listSessions();
  const cwd = cmd.cwd ? path.resolve(cmd.cwd) : undefined;
  // This directory's sessions first, then the rest unless --all is off and there are some here.
  const here = all.filter((r) => r.cwd === cwd);
  const records = cmd.all || here.length === 0 ? [...here, ...all.filter((r) => r.cwd !== cwd)] : here;
  if (cmd.json) process.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
  else process.stdout.write(`${formatSessions(records)}\n`);
  return 0;
}
