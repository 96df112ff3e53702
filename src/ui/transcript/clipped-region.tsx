import React, { useLayoutEffect, useRef, useState } from "react";
import { Box, Text, measureElement, type DOMElement } from "ink";

/** Props of a clipped region. */
export interface ClippedRegionProps {
  /** Rows the region may take at most, its "more above" line included. */
  maxRows: number;
  /** The line above clipped content, for `n` hidden rows. */
  moreLabel?: (n: number) => string;
  children: React.ReactNode;
}

const defaultLabel = (n: number) => `⋮ ${n} more line${n > 1 ? "s" : ""} above (printed in full when done)`;

/**
 * Shows the bottom `maxRows` rows of its children. Ink redraws the whole screen when the live
 * output reaches the terminal's height, so the live tail must stay shorter; a long streaming
 * answer shows its newest lines here and lands in the scrollback in full once it settles.
 * The children keep their place in the tree whether clipped or not, so nothing remounts.
 */
export function ClippedRegion({ maxRows, moreLabel = defaultLabel, children }: ClippedRegionProps): React.ReactElement {
  const inner = useRef<DOMElement | null>(null);
  const [natural, setNatural] = useState(0);
  useLayoutEffect(() => {
    if (!inner.current) return;
    const h = measureElement(inner.current).height;
    if (h !== natural) setNatural(h);
  });
  const limit = Math.max(2, maxRows);
  const clipped = natural > limit;
  return (
    <Box flexDirection="column">
      {clipped ? <Text dimColor>{moreLabel(natural - limit + 1)}</Text> : null}
      <Box flexDirection="column" height={clipped ? limit - 1 : undefined} overflow="hidden" justifyContent="flex-end" flexShrink={0}>
        <Box ref={inner} flexDirection="column" flexShrink={0}>
          {children}
        </Box>
      </Box>
    </Box>
  );
}
