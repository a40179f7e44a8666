import { useEffect, useRef, useState } from "react";

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
      setOpen(true);
      setHidden(false);
    }
  };
  useEffect(() => {
    if (!open || !collapsed || hidden) return;
    void ref.current?.offsetHeight; // lay out the collapsed state first: the transition starts from it
    setCollapsed(false);
  }, [open, collapsed, hidden]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return { open, collapsed, hidden, ref, toggle };
}
