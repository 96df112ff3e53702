import { render } from "ink-testing-library";
import { App } from "../../src/ui/app/app.js";
import { plain, type FakeSession } from "./fake-session.js";

/** The App on a terminal of `columns` x `rows`; `screen` is what the terminal shows of its frame: its bottom `rows - 1` rows (ink-draw/screen-fit). */
export function renderAt(session: FakeSession, columns: number, rows: number) {
  const view = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={0} />);
  Object.defineProperty(view.stdout, "columns", { value: columns, configurable: true });
  Object.defineProperty(view.stdout, "rows", { value: rows, configurable: true });
  view.stdout.emit("resize");
  const screen = () =>
    plain(view.lastFrame())
      .split("\n")
      .slice(-(rows - 1))
      .join("\n");
  return { ...view, screen };
}
