/**
 * The e-mails staff actions send a customer: a note added to their order "to the customer" (WooCommerce's
 * customer note e-mail) and a refund. Pure: the caller queues them in the outbox.
 */
import { formatMoney, type CurrencyFormat } from "../../domain/money/money.ts";

export function orderNoteEmail(order: { id: number }, note: string): { subject: string; body: string } {
  return {
    subject: `A note has been added to your order #${order.id}`,
    body: `The following note has been added to your order:\n\n${note}\n\nOrder #${order.id}\n`,
  };
}

export function orderRefundedEmail(order: { id: number }, amount: number, full: boolean, format: CurrencyFormat): { subject: string; body: string } {
  return {
    subject: full ? `Your order #${order.id} has been refunded` : `Your order #${order.id} has been partially refunded`,
    body: `${full ? "Your order has been refunded" : "Part of your order has been refunded"}: ${formatMoney(amount, format)}.\n\nOrder #${order.id}\n`,
  };
}
