/**
 * Tracking data printed with the page (docs/contract/storefront.md §3 'Tracking data'): JSON scripts, never run (no
 * CSP nonce needed), that the lazily loaded tracker reads when an event happens. Analytics only: nothing of the shop
 * reads them.
 */
import type { ProductTrackingData, TrackingParams } from "../../../core/domain/tracking/browser-tracking.ts";
import type { TrackingEventName } from "../../../core/domain/tracking/events.ts";

const json = (value: unknown) => ({ __html: JSON.stringify(value).replace(/</g, "\\u003c") });

/** One product's params for one unit (and its grouped children / variations), keyed by product id. */
export function TrackingProductData({ productId, data }: { productId: number; data: ProductTrackingData }) {
  return <script type="application/json" className="pys-product-data" data-product-id={productId} dangerouslySetInnerHTML={json(data)} />;
}

/** The event this page stands for (ViewContent on a product page, Purchase on a paid order's page), once per view. */
export function TrackingPageEvent({ event, params, orderId }: { event: TrackingEventName; params: TrackingParams; orderId?: number }) {
  return <script type="application/json" id="pys-page-event" dangerouslySetInnerHTML={json({ event, params, orderId: orderId ?? 0 })} />;
}

/** CompleteRegistration: printed once, on the first page after an account was created (the session's one-shot flag). */
export function TrackingRegistrationEvent() {
  return (
    <script
      type="application/json"
      id="pys-registration-event"
      dangerouslySetInnerHTML={json({ event: "CompleteRegistration", params: { method: "email" } })}
    />
  );
}
