/** The checkout's browser calls: form-encoded POSTs as WooCommerce's scripts send them, and their answers. */

export function post(url: string, body: URLSearchParams): Promise<Response> {
  return fetch(url, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8", "X-Requested-With": "XMLHttpRequest" },
    credentials: "same-origin",
  });
}

/** Text only: whatever the server sent, no markup survives (the login error is shown as text). */
export const plain = (s: unknown) =>
  String(s ?? "")
    .replace(/<[^>]*>?/g, "")
    .trim();

/** The general failure notice (the message is the shop's own configured text). */
export const errorNoticeHtml = (message: string) => `<ul class="woocommerce-error" role="alert"><li>${message}</li></ul>`;

export interface CheckoutAnswer {
  result?: string;
  redirect?: string;
  messages?: string;
  refresh?: boolean;
  reload?: boolean;
}

/** Posts the checkout form to `?wc-ajax=checkout`; the JSON answer (anything printed before it is skipped). */
export async function postCheckout(data: FormData): Promise<CheckoutAnswer | null> {
  const res = await post("/?wc-ajax=checkout", new URLSearchParams(data as unknown as Record<string, string>));
  const text = await res.text();
  const start = text.indexOf('{"result');
  return (start >= 0 ? JSON.parse(text.slice(start)) : null) as CheckoutAnswer | null;
}
