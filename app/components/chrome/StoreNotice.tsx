import { useState } from "react";

/** The site-wide store notice; dismissing sets `store_notice{id}=hidden` (path /), as the spec says. */
export function StoreNotice({ noticeId, text, hidden }: { noticeId: string; text: string; hidden: boolean }) {
  const [dismissed, setDismissed] = useState(hidden);
  if (dismissed) return null;
  return (
    <p className="woocommerce-store-notice demo_store" data-notice-id={noticeId}>
      {text}{" "}
      <button
        type="button"
        className="woocommerce-store-notice__dismiss-link"
        onClick={() => {
          document.cookie = `store_notice${noticeId}=hidden; path=/; SameSite=Lax`;
          setDismissed(true);
        }}
      >
        Dismiss
      </button>
    </p>
  );
}
