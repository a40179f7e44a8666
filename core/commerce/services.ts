/**
 * What the use cases need from the running shop, built once at start-up by the server (server/services.ts)
 * and handed to both adapters: the wc-ajax/REST endpoints and the React Router loaders and actions.
 */
import type { Db } from "../db/client.ts";
import type { Gate } from "../db/gate.ts";
import type { SiteConfig } from "../config/site-config.ts";
import type { FunnelRecorder } from "../tracking/funnel.ts";

/** One-line structured logs (server/log.ts writes them). Never pass request bodies: the checkout's carry card data. */
export interface ShopLogger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface ShopServices {
  db: Db;
  config: SiteConfig;
  /** Canonical site URL (no trailing slash); absolute links use the request's own origin. */
  siteUrl: string;
  secret: string;
  logger: ShopLogger;
  now: () => Date;
  production: boolean;
  /** The first-party funnel's buffer (core/tracking/funnel.ts); absent, nothing is counted. */
  funnel?: FunnelRecorder;
  /** Order transactions pass through it (core/db/gate.ts); absent, a small one is made per shop. */
  orderGate?: Gate;
  /** Checkout requests pass through it (defaultCheckoutGate); absent, one is made per shop. */
  checkoutGate?: Gate;
}
