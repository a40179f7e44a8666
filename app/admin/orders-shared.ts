/** What the order screens share: WooCommerce's status names, money in the order's currency, a person's name. */
import type { Address, RestOrder } from "./types.ts";
import { ORDER_STATUS_LABELS } from "../../core/domain/orders/status.ts";

/** The storefront's own status labels (core/domain/orders/status.ts), keyed by any string the API may send. */
export const ORDER_STATUS_NAMES: Readonly<Record<string, string>> = ORDER_STATUS_LABELS;

export const money = (order: Pick<RestOrder, "currency">, amount: string | number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: order.currency || "USD" }).format(Number(amount));

export const personOf = (a: Address) => [a.first_name, a.last_name].filter(Boolean).join(" ") || a.company || a.email || "Guest";

/** Cents of a decimal string, to add refunds without floating-point drift. */
export const cents = (amount: string | number) => Math.round(Number(amount) * 100);

/** An amount in the shop's currency (the frame's `data-currency` on #admin-screen, app/routes/wp-admin.tsx). */
export const shopMoney = (amount: string | number) => money({ currency: document.getElementById("admin-screen")?.dataset.currency ?? "USD" }, amount);
