import { cycleModes } from "../../session/session-modes.js";
import type { SessionPort } from "../session-port.js";
import { barSegments } from "../status/session-facts.js";
import { describeStatus, formatElapsed, isBusy } from "../status/status-text.js";
import { BEGIN_SYNC } from "../tty/terminal-features.js";
import { inputPlaceholder, type InstantSession } from "./instant-prompt.js";

/**
 * The session as the instant prompt shows it until the App is up, through the App's own functions:
 * the status line's words, the placeholder, the queue and the status bar of the App's first frame.
 */
export function instantSession(port: SessionPort, agentName: string, cwd: string): InstantSession {
  return {
    send: (text) => port.send(text),
    chrome: () => {
      const state = port.state;
      const view = describeStatus(state, { agentName, timing: port.timing });
      const opening = state.phase === "starting" || state.phase === "auth" || state.failure?.kind === "agent-start";
      return {
        status: view && {
          busy: view.busy,
          tone: view.tone,
          text: view.text,
          // StatusLine's tail: the elapsed time on the App's clock, and the keys that help.
          tail: view.busy
            ? `${view.since !== undefined ? ` · ${formatElapsed(Math.max(0, Date.now() - view.since))}` : ""}${view.hints.length ? ` · ${view.hints.join(" · ")}` : ""}`
            : "",
          detail: view.detail,
          hints: view.busy ? "" : view.hints.join(" · "),
        },
        placeholder: inputPlaceholder(state.phase, isBusy(state)),
        queue: state.queue.map((m) => m.text),
        waitsFor: opening ? "the session opens" : "the turn ends",
        bar: barSegments(state, agentName, cwd),
        modeHint: cycleModes(state).length > 1,
      };
    },
  };
}

/**
 * The stream with `prefix` written at the head of its first write (inside Ink's synchronized-output
 * mark, when it begins with one): the instant prompt is cleared in the write that draws the App.
 */
export function firstWritePrefixed(stream: NodeJS.WriteStream, prefix: string): NodeJS.WriteStream {
  let pending = prefix;
  return new Proxy(stream, {
    get(target, prop, receiver) {
      if (prop === "write" && pending) {
        return (chunk: unknown, ...rest: unknown[]) => {
          const head = pending;
          pending = "";
          const text = typeof chunk === "string" ? chunk : String(chunk);
          const joined = text.startsWith(BEGIN_SYNC) ? `${BEGIN_SYNC}${head}${text.slice(BEGIN_SYNC.length)}` : `${head}${text}`;
          return (target.write as (...args: unknown[]) => boolean).call(target, joined, ...rest);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
