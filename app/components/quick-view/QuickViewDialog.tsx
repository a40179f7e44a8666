/**
 * The quick-view dialog (docs/contract/sticky-quick-view.md §2): a modal <dialog> labelled by the product's name,
 * focus moved in on open and kept inside (Tab wraps), Escape or the close button closes it (the opener then gets
 * focus back). Inside: the product page's own gallery, price, AddToCartForm (VariationsForm with its swatches) and
 * added-to-cart notice, so adding goes through the product page's path: the form's submit is the cart script's
 * in-place single-product add (app/components/cart/cart-client.ts), with the same checks on both sides.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import "./quick-view.css";
import type { QuickViewData } from "./quick-view-data.ts";
import { AddToCartForm, productFormId } from "../product/AddToCartForm.tsx";
import { AddedToCartNotice } from "../product/AddedToCartNotice.tsx";
import { ProductGallery } from "../product/ProductGallery.tsx";
import { Price } from "../product/Price.tsx";
import type { VariationJson } from "../product/variation-json.ts";
import { mediaUrl } from "../../lib/format.ts";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([type="hidden"]):not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

export default function QuickViewDialog({ slug, onClose }: { slug: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  // The dialog element as state too: the gallery's lightbox mounts inside it.
  const [dialogElement, setDialogElement] = useState<HTMLDialogElement | null>(null);
  const dialogRef = useCallback((el: HTMLDialogElement | null) => {
    dialog.current = el;
    setDialogElement(el);
  }, []);
  const [data, setData] = useState<QuickViewData | null>(null);
  const [failed, setFailed] = useState(false);
  const [variation, setVariation] = useState<VariationJson | null>(null);
  const onVariation = useCallback((v: VariationJson | null) => setVariation(v), []);
  const titleId = `quick-view-title-${slug}`;

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (!el.open) el.showModal();
    el.querySelector<HTMLElement>(".quick-view-close")?.focus();
    // Focus stays inside: Tab from the last control goes to the first, Shift+Tab from the first to the last.
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== "Tab") return;
      const items = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((item) => item.offsetParent !== null || item === document.activeElement);
      if (!items.length) return;
      const first = items[0]!;
      const last = items[items.length - 1]!;
      if (e.shiftKey && (document.activeElement === first || document.activeElement === el)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    };
    // A click on the backdrop (the dialog element itself, outside its box) closes it.
    const onClick = (e: MouseEvent) => {
      if (e.target === el) el.close();
    };
    // Escape inside the gallery's lightbox closes the lightbox only.
    const onCancel = (e: Event) => {
      if (el.querySelector(".yarl__root")) e.preventDefault();
    };
    el.addEventListener("cancel", onCancel);
    el.addEventListener("keydown", onKeyDown);
    el.addEventListener("click", onClick);
    return () => {
      el.removeEventListener("keydown", onKeyDown);
      el.removeEventListener("click", onClick);
      el.removeEventListener("cancel", onCancel);
      // Not closed here: closing fires `close`, which would end a dialog React only re-mounts (StrictMode). Removed
      // from the page, it leaves the top layer by itself.
    };
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    fetch(`/quick-view/${encodeURIComponent(slug)}/`, { credentials: "same-origin", signal: controller.signal })
      .then((r) => (r.ok ? (r.json() as Promise<QuickViewData>) : Promise.reject(new Error(String(r.status)))))
      .then(setData, () => !controller.signal.aborted && setFailed(true));
    return () => controller.abort();
  }, [slug]);

  const product = data?.product;
  const images = product
    ? product.imageSlugs.map((s, i) => ({ src: mediaUrl(s), alt: product.imageAlts[i] ?? product.name, upload: product.imageUploads?.[i] }))
    : [];
  return (
    <dialog
      ref={dialogRef}
      className="ast-quick-view-dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-busy={!data && !failed}
      // Escape (the dialog's cancel) and the close button both end here.
      onClose={onClose}
    >
      <div className="quick-view-inner">
        <button type="button" className="quick-view-close" aria-label="Close quick view" onClick={() => dialog.current?.close()}>
          <span aria-hidden="true">×</span>
        </button>
        {product && data ? (
          <div className={`product quick-view-product product-type-${product.type}`}>
            <ProductGallery
              images={images}
              variationImage={variation?.image ?? null}
              breakpoint={data.gallery.breakpoint}
              resizeDebounceMs={data.gallery.resizeDebounceMs}
              badge={product.onSale ? <span className="onsale">Sale!</span> : null}
              shareUrl={data.url}
              title={product.name}
              lightboxRoot={dialogElement}
            />
            <div className="summary entry-summary">
              <h2 className="product_title entry-title" id={titleId}>
                {product.name}
              </h2>
              <p className="price">
                {variation ? (
                  <span dangerouslySetInnerHTML={{ __html: variation.price_html }} />
                ) : (
                  <Price className="price-inner" regular={product.regularPrice} sale={product.salePrice} min={product.priceMin} max={product.priceMax} />
                )}
              </p>
              <AddedToCartNotice productName={product.name} formId={productFormId(product.id)} />
              <AddToCartForm
                product={product}
                childProducts={data.children}
                bundledProducts={data.bundled}
                variable={data.variable ? { ...data.variable, onVariation } : undefined}
              />
              <p className="quick-view-details">
                <a href={data.url}>View full details</a>
              </p>
            </div>
          </div>
        ) : (
          <>
            <h2 className="product_title" id={titleId}>
              {failed ? "This product could not be loaded" : "Loading…"}
            </h2>
            {failed ? <p role="alert">Please try again, or open the product&rsquo;s page.</p> : null}
          </>
        )}
      </div>
    </dialog>
  );
}
