/** The shop the widgets talk to (without the connection's code, which loads when a widget starts). */
let shopOrigin: string | null = null;

/**
 * The embed, hosted on another site, talks to the shop it was loaded from:
 * its hub and its images, not the host page's origin.
 */
export function setShopOrigin(origin: string): void {
  shopOrigin = origin;
}

/** A root-relative address from the feed (an image) resolved against the shop when embedded elsewhere. */
export function shopAsset(url: string): string {
  return shopOrigin && url.startsWith("/") && !url.startsWith("//") ? `${shopOrigin}${url}` : url;
}

export const getShopOrigin = (): string | null => shopOrigin;
