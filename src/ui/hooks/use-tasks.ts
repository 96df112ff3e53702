import { useEffect, useRef, useState } from "react";
import type { SessionState } from "../../session/state.js";
import type { Task } from "../../session/tasks.js";
import type { SessionPort } from "../session-port.js";

/**
 * How often an open tasks view reads the agent's process table again. No event says when a process
 * conch did not start ends, or when the agent starts one, so while the view is open (and only then)
 * it looks once a second; what the session's own events change is read as they come.
 */
const REFRESH_MS = 1000;
/** The session's events come up to 30 times a second while an agent streams: the list is read at most this often for them. */
const STATE_REFRESH_MS = 250;

/** The session's tasks while the tasks view is open (none while it is closed); `refresh` reads them now. */
export function useTasks(port: SessionPort, state: SessionState, open: boolean): { tasks: Task[]; refresh: () => void } {
  const [tasks, setTasks] = useState<Task[]>([]);
  const lastRead = useRef(0);
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const alive = useRef(true);
  const read = useRef(() => undefined as void);
  read.current = () => {
    lastRead.current = Date.now();
    void port.listTasks().then((list) => {
      if (alive.current) setTasks(list);
    });
  };
  useEffect(() => {
    alive.current = true;
    if (!open) {
      setTasks([]);
      return;
    }
    read.current();
    const timer = setInterval(() => read.current(), REFRESH_MS);
    return () => {
      alive.current = false;
      clearInterval(timer);
      clearTimeout(pending.current);
    };
  }, [open]);
  useEffect(() => {
    if (!open || pending.current) return;
    const wait = Math.max(0, lastRead.current + STATE_REFRESH_MS - Date.now());
    pending.current = setTimeout(() => {
      pending.current = undefined;
      read.current();
    }, wait);
  }, [open, state]);
  return { tasks, refresh: () => read.current() };
}
