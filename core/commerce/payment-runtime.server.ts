/**
 * The shop's payment runtime: one gateway per running shop (the sandbox on the shop's database, until a real
 * provider is configured), the two gateway settings the forms render, and the dependencies the order use cases
 * take. The per-request storefront (storefront.server.ts) hands it to the checkout endpoints and to the route
 * modules alike, so both adapters pay through the same runtime.
 */
import { SandboxGateway } from "../payments/sandbox.server.ts";
import { registerSingleton } from "../singletons.ts";
import { Gate } from "../db/gate.ts";
import { orderLaneSize } from "../db/client.ts";
import { SqlSandboxStore } from "../payments/sql-store.server.ts";
import type { PaymentGateway } from "../payments/gateway.ts";
import { isCardTypeName, type GatewaySettings } from "../domain/payments/index.ts";
import { gatewaySettings } from "../domain/payments/settings.schema.ts";
import type { OrderDeps } from "./orders.ts";
import type { ShopServices } from "./services.ts";
import type { SiteConfig } from "../config/site-config.ts";

/** How long a gateway call may take before it counts as timed out. */
export const GATEWAY_DEADLINE_MS = 10_000;
/** An unfinished payment attempt older than this belongs to a call that died (a crash, a kill): reconcile it. */
export const RECONCILE_AFTER_MS = 30_000;
export const RECONCILE_EVERY_MS = 10_000;

export interface PaymentRuntime {
  gateway: PaymentGateway;
  /** The gateways as the shop started (ids, and the start-up options); a page or a payment asks `StorefrontCheckout.gateways()`. */
  gateways: { card: GatewaySettings; echeck: GatewaySettings };
  deps: OrderDeps;
  /** Checkout requests in progress at once (defaultCheckoutGate); the wc-ajax and Store API checkouts run inside it. */
  checkoutGate: Gate;
}

/**
 * Order transactions at once: on PostgreSQL one fewer than the order lane's connections (the pool's half set aside for
 * placing orders; the other half serves pages and carts during a checkout storm), so the payment steps of the orders
 * already made find a connection; one on PGlite, which runs one transaction at a time anyway.
 */
export function defaultOrderGate(services: Pick<ShopServices, "db">, poolSize = 10, waitMs = 10_000): Gate {
  return new Gate(services.db.kind === "pglite" ? 1 : Math.max(1, orderLaneSize(poolSize) - 1), waitMs);
}

/**
 * Checkout requests in progress at once, from their first query: on PostgreSQL as many as the pool's connections
 * outside the order lane. Under a storm the others wait in memory, first come first served, so the first shoppers
 * finish in moments instead of all 200 advancing one query at a time through the pool's queue and all running out of
 * time together (docs/decisions/0027). PGlite has no pool to starve: its one connection is the queue, so no limit.
 */
export function defaultCheckoutGate(services: Pick<ShopServices, "db">, poolSize = 10, waitMs = 10_000): Gate {
  return new Gate(services.db.kind === "pglite" ? Infinity : Math.max(1, poolSize - orderLaneSize(poolSize)), waitMs);
}

export type Gateways = PaymentRuntime["gateways"];
const gatewaysByOptions = new Map<string, Gateways>();
registerSingleton("gateway settings by options");

/**
 * The two gateways' settings for the card options in effect (`payments`: the start-up configuration, or the
 * owner's saved `shop/v1/settings/payments` through currentSiteConfig): the same ids whatever the options, so an
 * order, a token or a nonce made under other options still names its gateway. Made once per distinct options.
 */
export function gatewaysFor(pay: SiteConfig["payments"]): Gateways {
  const key = JSON.stringify([pay.cscRequired, pay.cscRequiredForTokens, pay.enabledCardTypes]);
  let gateways = gatewaysByOptions.get(key);
  if (!gateways) {
    if (gatewaysByOptions.size > 50) gatewaysByOptions.clear();
    gateways = {
      card: gatewaySettings({
        id: "sandbox_credit_card",
        plugin_id: "sandbox",
        type: "credit-card",
        csc_required: pay.cscRequired,
        csc_required_for_tokens: pay.cscRequiredForTokens,
        enabled_card_types: pay.enabledCardTypes,
      }),
      echeck: gatewaySettings({ id: "sandbox_echeck", plugin_id: "sandbox", type: "echeck", csc_required: false }),
    };
    gatewaysByOptions.set(key, gateways);
  }
  return gateways;
}

const runtimes = new WeakMap<ShopServices, PaymentRuntime>();
registerSingleton("payment runtimes");

/** One gateway per running shop: the sandbox on the shop's database, until a real provider is configured. */
export function paymentRuntime(services: ShopServices): PaymentRuntime {
  let rt = runtimes.get(services);
  if (rt) return rt;
  const gateway = new SandboxGateway({
    // The sandbox stands in for a remote processor: its ledger uses the order lane, as the payment steps do.
    store: new SqlSandboxStore(services.db.orderLane),
    // Well below RECONCILE_AFTER_MS, so the reconciler never touches an attempt whose call may still be running.
    defaultDeadlineMs: GATEWAY_DEADLINE_MS,
    // Every call ends within its deadline, so an older pending claim is a dead call's and may be taken over.
    staleClaimMs: 2 * GATEWAY_DEADLINE_MS,
    // Operation, key, status, code, brand and last four only — never a number or a CSC.
    log: (event, fields) => services.logger.debug(`payments ${event}`, { ...fields }),
  });
  const pay = services.config.payments;
  const unknown = pay.enabledCardTypes.filter((t) => !isCardTypeName(t));
  if (unknown.length || !pay.enabledCardTypes.length)
    throw new Error(`SHOP_SETTINGS: payments.enabledCardTypes must list known card types (${unknown.join(", ") || "none given"})`);
  const gateways = gatewaysFor(pay);
  const deps: OrderDeps = {
    db: services.db,
    orderGate: services.orderGate ?? defaultOrderGate(services),
    gateway,
    currency: services.config.currency.code,
    currencyFormat: services.config.currency.format,
    now: services.now,
    log: (msg, fields) => services.logger.warn(msg, fields),
    cardGatewayId: gateways.card.id,
    echeckGatewayId: gateways.echeck.id,
    siteUrl: services.siteUrl,
  };
  rt = { gateway, gateways, deps, checkoutGate: services.checkoutGate ?? defaultCheckoutGate(services) };
  runtimes.set(services, rt);
  return rt;
}
