import React from "react";
import { render } from "ink-testing-library";
import { KeypressProvider } from "../../src/ui/hooks/use-keypress.js";

/** ink-testing-library's render under the keypress dispatcher the App puts at its root: for a view drawn alone. */
export function renderKeyed(node: React.ReactElement): ReturnType<typeof render> {
  const view = render(<KeypressProvider>{node}</KeypressProvider>);
  return { ...view, rerender: (next: React.ReactElement) => view.rerender(<KeypressProvider>{next}</KeypressProvider>) };
}
