/**
 * Share counts for the share buttons (docs/contract/wire.md §2 'Share counts'): GET /wp-json/shop/v1/share-counts?url=
 * answers `{counts: {network: n}}` for the configured counter networks that answered with a number. Our server asks
 * the networks (the page loads no third-party script), only about our own pages (no open relay), with a time-out,
 * one request per page and network at a time, and a cache, so a busy page costs the networks one call an hour.
 */
import { z } from "zod";
import { json } from "../http/dispatch.ts";
import { restError } from "../http/rest.ts";
import { requestOrigin } from "../http/pages.ts";
import { isNamablePath } from "../http/path-guard.ts";
import { parseShareCount } from "../../core/domain/share/networks.ts";
import type { Endpoints, Feature } from "./feature.ts";
import type { AppServices } from "../services.ts";

const MAX_CACHED = 2000;

interface Cached {
  at: number;
  counts: Promise<Record<string, number>>;
}

export const shareFeature: Feature = { name: "share", endpoints: registerShareEndpoints };

function registerShareEndpoints({ rest }: Endpoints, services: AppServices): void {
  const cache = new Map<string, Cached>();
  const query = z.object({ url: z.string().min(1).max(2000) });

  rest.register("GET", "shop/v1/share-counts", async ({ query: q, req }) => {
    const parsed = query.safeParse(q);
    if (!parsed.success) return restError("rest_missing_callback_param", "Missing parameter(s): url", 400, { params: ["url"] });
    const page = ownPage(parsed.data.url, [services.siteUrl, requestOrigin(req)]);
    if (!page) return restError("rest_invalid_param", "Invalid parameter(s): url", 400, { params: { url: "url must be a page of this shop." } });
    const settings = services.config.share;
    const networks = settings.counters.filter((id) => settings.networks.includes(id));
    if (!settings.enabled || networks.length === 0) return json({ url: page, counts: {} });
    const now = services.now().getTime();
    let entry = cache.get(page);
    if (!entry || now - entry.at > settings.countCacheSeconds * 1000) {
      entry = { at: now, counts: fetchCounts(page, networks, settings.countEndpoints, settings.countTimeoutMs) };
      cache.delete(page);
      cache.set(page, entry);
      if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
    }
    return json({ url: page, counts: await entry.counts }, 200, { "Cache-Control": "public, max-age=600" });
  });
}

/** The address as the shop's canonical page address (no query, no fragment), or null when it is not ours. */
function ownPage(raw: string, origins: string[]): string | null {
  try {
    const url = new URL(raw);
    if (!origins.some((o) => new URL(o).origin === url.origin) || !isNamablePath(url.pathname)) return null;
    return `${url.origin}${url.pathname}`;
  } catch {
    return null;
  }
}

async function fetchCounts(page: string, networks: string[], endpoints: Record<string, string>, timeoutMs: number): Promise<Record<string, number>> {
  const results = await Promise.all(
    networks.map(async (id) => {
      const template = endpoints[id];
      if (!template) return [id, null] as const;
      try {
        const res = await fetch(template.replace("{url}", encodeURIComponent(page)), { signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
        if (!res.ok) return [id, null] as const;
        const body = (await res.text()).slice(0, 10_000);
        return [id, parseShareCount(id, body)] as const;
      } catch {
        return [id, null] as const; // unreachable or slow: no number rather than a guessed one
      }
    }),
  );
  return Object.fromEntries(results.filter((r): r is readonly [string, number] => r[1] !== null));
}
