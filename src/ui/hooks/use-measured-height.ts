import { measureElement, type DOMElement } from "ink";
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from "react";

/**
 * The laid-out height of an element, measured after every render, and a way to measure it again
 * after a commit of a part of it that rendered alone. A change costs one more render; a steady
 * height costs nothing.
 */
export function useMeasuredHeight(): [RefObject<DOMElement | null>, number, () => void] {
  const ref = useRef<DOMElement | null>(null);
  const [height, setHeight] = useState(0);
  const last = useRef(height);
  last.current = height;
  const measure = useCallback(() => {
    // An element no longer drawn takes no rows (its last height would be counted against the rest).
    const h = ref.current ? measureElement(ref.current).height : 0;
    if (h !== last.current) {
      last.current = h;
      setHeight(h);
    }
  }, []);
  // After every render on purpose: any render may change the laid-out height.
  useLayoutEffect(measure);
  return [ref, height, measure];
}
