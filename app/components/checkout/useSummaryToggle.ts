import { useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";

/**
 * The order summary's show/hide toggle: its state, the collapsing class (the CSS animation) and `hidden`
 * once the animation is over. Collapsing: out of the tab order and the accessibility tree at once (inert),
 * out of the layout (hidden) after `collapseMs`. Expanding: `hidden` goes first, then the class, so the
 * opening animates too.
 */
export function useSummaryToggle(collapseMs: number) {
  const [open, setOpen] = useState(true);
  const [collapsed, setCollapsed] = useState(false);
  const [hidden, setHidden] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const toggle = () => {
    clearTimeout(timer.current);
    if (open) {
      setOpen(false);
      setCollapsed(true);
      timer.current = setTimeout(() => setHidden(true), collapseMs);
    } else {
      // Commit the shown-but-collapsed state, lay it out (the transition starts from it), then expand.
      flushSync(() => {
        setOpen(true);
        setHidden(false);
      });
      void ref.current?.offsetHeight;
      setCollapsed(false);
    }
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  return { open, collapsed, hidden, ref, toggle };
}
