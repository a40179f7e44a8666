/**
 * Quick view on listings (docs/contract/sticky-quick-view.md §2), on when `shop_quick_view_enable` is: each card gets
 * a "Quick view" button; the dialog and its data load only when one is pressed, so a listing ships no more script
 * than before. `QuickViewScope` wraps a listing; `QuickViewButton` renders nothing outside one (or when it is off),
 * so the cards rendered as fragments (no router) are unchanged.
 */
import { createContext, lazy, Suspense, useCallback, useContext, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import type { ProductSummary } from "../../../core/domain/catalog/products.ts";
import { loadChunk } from "../../lib/page-errors.ts";

const QuickViewDialog = lazy(() => loadChunk("quick-view", () => import("./QuickViewDialog.tsx")));

type Open = (slug: string, opener: HTMLElement) => void;
const QuickViewContext = createContext<Open | null>(null);

export function QuickViewScope({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData("root") as { globals?: { astra?: { shop_quick_view_enable?: string } } } | undefined;
  const enabled = root?.globals?.astra?.shop_quick_view_enable === "1";
  // Each opening is a new dialog (its own `key`): a dialog closed by Escape fires its `close` event a task later, and
  // a quick Escape then Enter would otherwise see that late event close the dialog just opened.
  const [open, setOpen] = useState<{ slug: string; opener: HTMLElement; id: number } | null>(null);
  const current = useRef(open);
  useLayoutEffect(() => {
    current.current = open;
  });
  const openings = useRef(0);
  const onOpen = useCallback<Open>((slug, opener) => setOpen({ slug, opener, id: ++openings.current }), []);
  const onClose = useCallback((id: number) => {
    const closing = current.current;
    if (closing?.id !== id) return;
    setOpen(null);
    // Focus goes back to the button that opened the dialog.
    if (closing.opener.isConnected) closing.opener.focus();
  }, []);
  const value = useMemo(() => (enabled ? onOpen : null), [enabled, onOpen]);
  return (
    <QuickViewContext.Provider value={value}>
      {children}
      {open ? (
        <Suspense fallback={null}>
          <QuickViewDialog key={open.id} slug={open.slug} onClose={() => onClose(open.id)} />
        </Suspense>
      ) : null}
    </QuickViewContext.Provider>
  );
}

export function QuickViewButton({ product }: { product: ProductSummary }) {
  const open = useContext(QuickViewContext);
  if (!open || product.type === "external") return null;
  return (
    <button
      type="button"
      className="ast-quick-view-button button"
      data-product_id={product.id}
      aria-haspopup="dialog"
      aria-label={`Quick view: “${product.name}”`}
      onClick={(e) => open(product.slug, e.currentTarget)}
    >
      Quick view
    </button>
  );
}
