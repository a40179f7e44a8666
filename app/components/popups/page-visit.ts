/**
 * Every page, once it is interactive (a small lazy chunk): counts the page view and the browser session
 * (docs/contract/storefront.md §4 'Popups'), and on the order received page reports a conversion for each popup this
 * browser session showed (the server checks the order is this session's and an impression came first:
 * docs/decisions/0018-popups.md).
 */
import { countPageView, shownThisSession, STORAGE_KEY } from "../../../core/domain/popups/storage.ts";
import { reportPopupEvent, storageObject } from "./browser-state.ts";

export function recordVisit(pathname: string, search: string): void {
  const local = storageObject("localStorage", STORAGE_KEY);
  const session = storageObject("sessionStorage", STORAGE_KEY);
  countPageView(local.value, session.value);
  local.save();
  session.save();
  const received = /^\/checkout\/order-received\/(\d+)\/$/.exec(pathname);
  const key = new URLSearchParams(search).get("key");
  if (!received || !key) return;
  const orderId = Number(received[1]);
  const sent = Array.isArray(session.value.conversions_sent) ? (session.value.conversions_sent as unknown[]) : [];
  if (sent.includes(orderId)) return;
  for (const s of shownThisSession(session.value)) reportPopupEvent(s.id, "conversion", { order_id: orderId, order_key: key });
  session.value.conversions_sent = [...sent, orderId].slice(-20);
  session.save();
}
