/**
 * Share buttons (docs/contract/storefront.md §2 'Share buttons', §9 'Share networks'): plain links with the page's
 * canonical address and title, so they work without JavaScript and load nothing from the networks. Once hydrated,
 * a network with a share window opens it at its size, Print prints, the device's own share sheet is offered where
 * the browser has one, and public counts (read by our server) are shown where a network publishes one.
 */
import { useEffect, useState } from "react";
import { SHARE_NETWORKS, shareHref, type ShareNetwork } from "../../../core/domain/share/networks.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";

export interface ShareSettings {
  networks: string[];
  counters: string[];
}

export const SHARE_COUNTS_PATH = "/wp-json/shop/v1/share-counts";

function openShareWindow(event: React.MouseEvent<HTMLAnchorElement>, network: ShareNetwork) {
  if (!network.popup || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  const { width, height } = network.popup;
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  window.open(event.currentTarget.href, `share-${network.id}`, `popup,width=${width},height=${height},left=${left},top=${top},noopener,noreferrer`);
}

export function ShareButtons({ url, title, settings }: { url: string; title: string; settings: ShareSettings }) {
  const hydrated = useHydrated();
  const [counts, setCounts] = useState<Record<string, number>>({});
  // The device's share sheet: only after hydration, so the server and the first client render agree.
  const nativeShare = hydrated && typeof navigator.share === "function";
  const networks = settings.networks.flatMap((id) => SHARE_NETWORKS.filter((n) => n.id === id));
  const counted = settings.counters.filter((id) => settings.networks.includes(id));
  useEffect(() => {
    if (counted.length === 0) return;
    const controller = new AbortController();
    fetch(`${SHARE_COUNTS_PATH}?url=${encodeURIComponent(url)}`, { signal: controller.signal, headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? (r.json() as Promise<{ counts?: Record<string, unknown> }>) : null))
      .then((body) => {
        const next: Record<string, number> = {};
        for (const [id, n] of Object.entries(body?.counts ?? {}))
          if (counted.includes(id) && Number.isSafeInteger(n) && (n as number) >= 0) next[id] = n as number;
        setCounts(next);
      })
      .catch(() => {}); // no count is shown rather than a wrong one
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `counted` is derived from settings, stable per page
  }, [url, counted.join(",")]);
  if (networks.length === 0) return null;
  return (
    <div className="share-buttons" role="group" aria-label="Share this page">
      <span className="share-buttons__title" aria-hidden="true">
        Share
      </span>
      <ul className="share-buttons__list">
        {networks.map((n) => {
          const count = counts[n.id];
          const label = `${n.id === "email" ? "Share by e-mail" : n.id === "print" ? "Print this page" : `Share on ${n.label}`}${count !== undefined ? ` (${count} shares)` : ""}`;
          return (
            <li key={n.id}>
              {n.id === "print" ? (
                <button type="button" className="share-button share-print" aria-label={label} disabled={!hydrated} onClick={() => window.print()}>
                  <span aria-hidden="true">{n.label}</span>
                </button>
              ) : (
                <a
                  className={`share-button share-${n.id}`}
                  href={shareHref(n, { url, title })}
                  aria-label={label}
                  {...(n.id === "email" ? {} : { target: "_blank", rel: "noopener noreferrer" })}
                  onClick={(e) => openShareWindow(e, n)}
                >
                  <span aria-hidden="true">{n.label}</span>
                  {count !== undefined ? (
                    <span className="share-count" aria-hidden="true">
                      {count.toLocaleString("en-US")}
                    </span>
                  ) : null}
                </a>
              )}
            </li>
          );
        })}
        {nativeShare ? (
          <li>
            <button type="button" className="share-button share-native" onClick={() => void navigator.share({ url, title }).catch(() => {})}>
              More…
            </button>
          </li>
        ) : null}
      </ul>
    </div>
  );
}
