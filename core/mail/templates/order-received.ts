/** The "order received" e-mail, sent once an order is paid. Pure: the caller queues what it returns. */
import { formatMoney, type CurrencyFormat } from "../../domain/money/money.ts";
import type { OrderLineView, OrderView } from "../../domain/orders/types.ts";

/** What the e-mails print of an order: its lines, shipping, tax rows (none while Settings › Tax is off) and total. */
type MailedOrder = Pick<OrderView, "id" | "shippingTotal" | "total"> & {
  lines: Pick<OrderLineView, "name" | "quantity" | "total" | "details">[];
  taxLines?: OrderView["taxLines"];
};

export function orderReceivedEmail(
  order: MailedOrder,
  format: CurrencyFormat,
  downloads: readonly { name: string; url: string }[] = [],
): { subject: string; body: string } {
  // A line's choice (variation, bundle contents) on the next line, indented: the receipt says exactly what was bought.
  const lines = order.lines.map((l) => `${l.name} × ${l.quantity}: ${formatMoney(l.total, format)}${l.details ? `\n  ${l.details}` : ""}`).join("\n");
  // One row per tax rate charged ("VAT: $4.00"), WooCommerce's itemised tax totals.
  const taxes = (order.taxLines ?? []).map((t) => `${t.label}: ${formatMoney(t.taxTotal + t.shippingTaxTotal, format)}\n`).join("");
  return {
    subject: `Your order #${order.id} has been received`,
    body:
      `Thank you for your order.\n\nOrder #${order.id}\n${lines}\nShipping: ${formatMoney(order.shippingTotal, format)}\n${taxes}Total: ${formatMoney(order.total, format)}\n` +
      (downloads.length ? `\nDownloads\n${downloads.map((d) => `${d.name}: ${d.url}`).join("\n")}\n` : ""),
  };
}

/** The same details sent again by staff (WooCommerce's "Order details" e-mail, the admin's "Resend order details"). */
export function orderDetailsEmail(order: MailedOrder, format: CurrencyFormat): { subject: string; body: string } {
  const received = orderReceivedEmail(order, format);
  return { subject: `Details for order #${order.id}`, body: received.body.replace("Thank you for your order.", "Here are the details of your order.") };
}
