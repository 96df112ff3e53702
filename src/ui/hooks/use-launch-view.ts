import { useEffect, useState } from "react";
import type { Launch } from "../launch.js";
import type { LaunchView } from "../status/status-text.js";

const READY: LaunchView = { phase: "ready" };

/** The launch's current view, re-rendered when it changes; "ready" when there is no launch to watch. */
export function useLaunchView(launch: Launch | undefined): LaunchView {
  const [view, setView] = useState<LaunchView>(() => launch?.view ?? READY);
  useEffect(() => {
    if (!launch) return;
    setView(launch.view);
    return launch.subscribe(() => setView(launch.view));
  }, [launch]);
  return view;
}
