/**
 * The "payment failed" e-mail: sent when the reconciler fails an order whose shopper already left the page, with
 * the link to pay it again. Pure: the caller builds the link on the shop's canonical address and queues the mail.
 */
import { formatMoney, type CurrencyFormat } from "../../domain/money/money.ts";

export function orderPaymentFailedEmail(order: { id: number; total: number; payUrl: string }, format: CurrencyFormat): { subject: string; body: string } {
  return {
    subject: `Payment for your order #${order.id} failed`,
    body:
      `The payment for your order did not go through, so the order will not be sent until it is paid.\n\n` +
      `Order #${order.id}\nTotal: ${formatMoney(order.total, format)}\n\n` +
      `To try again with another card or account, open this link:\n${order.payUrl}\n`,
  };
}
