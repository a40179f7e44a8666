/**
 * The unsaved-changes warning (docs/contract/admin.md): every way out of an admin screen is a page load (its links
 * are plain links, decision 0024), so the browser's own "Leave site?" prompt covers menu links, the address bar and
 * closing the tab.
 */
import { useEffect } from "react";

export function useUnsavedWarning(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);
}
