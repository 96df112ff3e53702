import { measureElement, type DOMElement } from "ink";
import { useLayoutEffect, useRef, useState, type RefObject } from "react";

/**
 * The laid-out height of an element, measured after every render. A change costs one more
 * render; a steady height costs nothing.
 */
export function useMeasuredHeight(): [RefObject<DOMElement | null>, number] {
  const ref = useRef<DOMElement | null>(null);
  const [height, setHeight] = useState(0);
  // After every render on purpose: any render may change the laid-out height.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    // An element no longer drawn takes no rows (its last height would be counted against the rest).
    const h = ref.current ? measureElement(ref.current).height : 0;
    if (h !== height) setHeight(h);
  });
  return [ref, height];
}
