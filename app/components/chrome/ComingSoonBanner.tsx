/**
 * The 'coming soon' footer banner (docs/contract/storefront.md §2, §4 'Banners and fields', §7): for signed-in
 * visitors only. Dismiss POSTs the user meta `coming_soon_banner_dismissed = 'yes'` to the REST address printed on
 * the link (plus `_locale=user`, §7 'REST client'), with X-WP-Nonce; the banner hides when the request completes, whether it succeeded or failed, and the
 * server remembers the dismissal for the account.
 */
import { useRef, useState } from "react";
import { withUserLocale } from "../../lib/rest-url.ts";

export interface ComingSoonData {
  text: string;
  restUrl: string;
  nonce: string;
}

export function ComingSoonBanner({ data }: { data: ComingSoonData }) {
  const [state, setState] = useState<"shown" | "sending" | "hidden">("shown");
  const region = useRef<HTMLDivElement>(null);
  if (state === "hidden") return null;
  const dismiss = (event: React.MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    if (state === "sending") return;
    setState("sending");
    const link = event.currentTarget;
    fetch(withUserLocale(link.dataset.restUrl ?? data.restUrl), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-WP-Nonce": link.dataset.restNonce ?? data.nonce },
      body: JSON.stringify({ meta: { coming_soon_banner_dismissed: "yes" } }),
    })
      .catch(() => {})
      .finally(() => {
        // Focus was on the link that is going away: keep keyboard users in the footer, not at the top of the page.
        region.current?.closest("footer")?.focus({ preventScroll: true });
        setState("hidden");
      });
  };
  return (
    <div ref={region} className="coming-soon-footer-banner" role="region" aria-label="Coming soon">
      <p className="coming-soon-footer-banner__content container">
        <span>{data.text}</span> {/* WooCommerce prints a link; a button is what it does (it changes state, it goes nowhere). */}
        <button
          type="button"
          className="coming-soon-footer-banner-dismiss"
          data-rest-url={data.restUrl}
          data-rest-nonce={data.nonce}
          aria-disabled={state === "sending" || undefined}
          onClick={dismiss}
        >
          Dismiss
        </button>
      </p>
    </div>
  );
}
