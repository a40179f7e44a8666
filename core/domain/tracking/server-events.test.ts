import { describe, expect, it } from "vitest";
import { capiBody, funnelAttribution, mpBody, parseIncomingEvent, type EventEnrichment } from "./server-events.ts";
import { daysBetween, eachDay, parseFunnelQuery, periodRange, rate } from "./funnel-report.ts";
import { encodeCookieValue } from "../attribution/sourcebuster.ts";
import { restPermission, roleCan } from "../../security/capabilities.ts";

const ID = "0b6f1d0e-8f7a-4c1e-9a51-6f1f7c1d2e3f";

describe("parseIncomingEvent", () => {
  it("reads the REST fields, with woo_order and edd_order defaulting to 0", () => {
    const r = parseIncomingEvent({ event: "AddToCart", data: '{"value":15,"currency":"USD"}', "ids[]": ["123", "456"], eventID: ID }, "rest");
    expect(r).toEqual({
      ok: true,
      event: { name: "AddToCart", data: { value: 15, currency: "USD" }, ids: ["123", "456"], eventId: ID, wooOrder: 0, pixel: null, url: null },
    });
  });

  it("names the first bad field, in WordPress's codes", () => {
    const refusal = (p: Record<string, unknown>, via: "rest" | "ajax" = "rest") => {
      const r = parseIncomingEvent(p, via);
      return r.ok ? null : r.refusal;
    };
    expect(refusal({ eventID: ID })).toMatchObject({ code: "rest_missing_callback_param", param: "event" });
    expect(refusal({ event: "Nope", eventID: ID })).toMatchObject({ code: "rest_invalid_param", param: "event" });
    expect(refusal({ event: ["PageView", "Lead"], eventID: ID })).toMatchObject({ param: "event" });
    expect(refusal({ event: "PageView", eventID: ID, data: "[1,2]" })).toMatchObject({ param: "data", reason: "data is not a JSON object." });
    expect(refusal({ event: "PageView", eventID: ID, data: "{" })).toMatchObject({ param: "data", reason: "data is not valid JSON." });
    expect(refusal({ event: "PageView", eventID: ID, data: JSON.stringify({ "bad key": 1 }) })).toMatchObject({ param: "data" });
    // 8192 bytes counted in UTF-8: 3000 euro signs are 9000 bytes.
    expect(refusal({ event: "PageView", eventID: ID, data: JSON.stringify({ s: "€".repeat(3000) }) })).toMatchObject({ param: "data" });
    expect(refusal({ event: "PageView", eventID: ID, data: JSON.stringify({ s: "a".repeat(8000) }) })).toBeNull();
    expect(refusal({ event: "PageView", eventID: ID, ids: Array.from({ length: 11 }, (_, i) => String(i)) })).toMatchObject({ param: "ids" });
    expect(refusal({ event: "PageView", eventID: ID, woo_order: "1.5" })).toMatchObject({ param: "woo_order" });
    expect(refusal({ event: "PageView", eventID: ID, edd_order: "99999999999" })).toMatchObject({ param: "edd_order" });
    expect(refusal({ event: "Purchase", eventID: ID, woo_order: "0" })).toMatchObject({ code: "rest_missing_callback_param", param: "woo_order" });
    expect(refusal({ event: "PageView", eventID: ID }, "ajax")).toMatchObject({ code: "rest_missing_callback_param", param: "pixel" });
    expect(refusal({ event: "PageView", eventID: ID, pixel: "facebook", url: "ftp://x" }, "ajax")).toMatchObject({ param: "url" });
    expect(refusal({ event: "PageView", eventID: ID, pixel: "facebook", ajax_event: "a b" }, "ajax")).toMatchObject({ param: "ajax_event" });
    expect(refusal({ event: "PageView", eventID: ID, pixel: "facebook", url: "https://shop.test/x/", ajax_event: "abc123" }, "ajax")).toBeNull();
  });
});

const enrichment = (over: Partial<EventEnrichment> = {}): EventEnrichment => ({
  time: 1_764_000_000,
  pageUrl: "https://shop.test/checkout/order-received/7/",
  clientAddress: "203.0.113.9",
  userAgent: "UA",
  order: { id: 7, total: 4550, currency: "USD", lines: [{ productId: 11, quantity: 2, total: 3000 }] },
  attribution: { source: "google", medium: "cpc", campaign: "spring" },
  hashedEmail: "ab".repeat(32),
  clientId: "1.2",
  userId: 5,
  ...over,
});

describe("destination bodies", () => {
  const purchase = parseIncomingEvent({ event: "Purchase", eventID: ID, woo_order: "7", data: '{"value":1,"currency":"EUR"}' }, "rest");
  if (!purchase.ok) throw new Error("fixture");

  it("Conversions-API style: the order's value and contents replace the browser's, the e-mail hashed", () => {
    const body = capiBody(purchase.event, enrichment()) as { data: Record<string, Record<string, unknown>>[] };
    expect(body.data[0]).toMatchObject({ event_name: "Purchase", event_id: ID, event_time: 1_764_000_000, action_source: "website" });
    expect(body.data[0]!.custom_data).toMatchObject({
      value: 45.5,
      currency: "USD",
      order_id: "7",
      content_ids: ["11"],
      contents: [{ id: "11", quantity: 2 }],
      num_items: 2,
    });
    expect(body.data[0]!.user_data).toEqual({ client_ip_address: "203.0.113.9", client_user_agent: "UA", em: ["ab".repeat(32)] });
    const guest = capiBody(purchase.event, enrichment({ hashedEmail: null })) as { data: Record<string, Record<string, unknown>>[] };
    expect(guest.data[0]!.user_data).not.toHaveProperty("em");
  });

  it("Measurement-Protocol style: GA4 names, items and transaction id, no e-mail", () => {
    const body = mpBody(purchase.event, enrichment()) as { client_id: string; user_id: string; events: { name: string; params: Record<string, unknown> }[] };
    expect(body.client_id).toBe("1.2");
    expect(body.user_id).toBe("5");
    expect(body.events[0]!.name).toBe("purchase");
    expect(body.events[0]!.params).toMatchObject({ transaction_id: "7", value: 45.5, currency: "USD", items: [{ item_id: "11", quantity: 2, price: 15 }] });
    expect(JSON.stringify(body)).not.toContain("ab".repeat(32));
  });
});

describe("funnelAttribution", () => {
  const cookie = encodeCookieValue({ typ: "utm", src: "newsletter", mdm: "email", cmp: "(none)" }, false);
  it("reads the sourcebuster cookie first, then the order's attribution, else direct", () => {
    expect(funnelAttribution(cookie)).toEqual({ source: "newsletter", medium: "email", campaign: "(none)" });
    expect(funnelAttribution(undefined, { _wc_order_attribution_utm_source: "bing", _wc_order_attribution_utm_medium: "cpc" })).toEqual({
      source: "bing",
      medium: "cpc",
      campaign: "(none)",
    });
    expect(funnelAttribution(undefined, { _wc_order_attribution_utm_source: "(none)" })).toEqual({ source: "(direct)", medium: "(none)", campaign: "(none)" });
    expect(funnelAttribution("garbage")).toEqual({ source: "(direct)", medium: "(none)", campaign: "(none)" });
  });
});

describe("funnel report query", () => {
  const today = new Date("2026-11-25T10:00:00Z"); // a Wednesday
  it("turns WooCommerce's period names into days", () => {
    expect(periodRange("today", today)).toEqual({ after: "2026-11-25", before: "2026-11-25" });
    expect(periodRange("week", today)).toEqual({ after: "2026-11-23", before: "2026-11-25" });
    expect(periodRange("last_week", today)).toEqual({ after: "2026-11-16", before: "2026-11-22" });
    expect(periodRange("last_month", today)).toEqual({ after: "2026-10-01", before: "2026-10-31" });
    expect(periodRange("last_quarter", today)).toEqual({ after: "2026-07-01", before: "2026-09-30" });
    expect(periodRange("last_year", today)).toEqual({ after: "2025-01-01", before: "2025-12-31" });
  });
  it("validates every parameter", () => {
    expect(parseFunnelQuery({}, today)).toEqual({ ok: true, query: { after: "2026-11-01", before: "2026-11-25", perPage: 25 } });
    expect(parseFunnelQuery({ after: "2026-11-02T00:00:00", before: "2026-11-03", source: "google" }, today)).toMatchObject({
      ok: true,
      query: { after: "2026-11-02", before: "2026-11-03", source: "google" },
    });
    expect(parseFunnelQuery({ period: "forever" }, today)).toMatchObject({ ok: false, params: { period: expect.any(String) } });
    expect(parseFunnelQuery({ after: "2026-02-30", before: "2026-03-01" }, today)).toMatchObject({ ok: false, params: { after: expect.any(String) } });
    expect(parseFunnelQuery({ after: "2026-03-01" }, today)).toMatchObject({ ok: false, params: { before: expect.any(String) } });
    expect(parseFunnelQuery({ after: "2026-03-02", before: "2026-03-01" }, today)).toMatchObject({ ok: false });
    expect(parseFunnelQuery({ after: "2020-01-01", before: "2026-03-01" }, today)).toMatchObject({ ok: false });
    expect(parseFunnelQuery({ per_page: "0" }, today)).toMatchObject({ ok: false, params: { per_page: expect.any(String) } });
    expect(parseFunnelQuery({ source: ["a", "b"] }, today)).toMatchObject({ ok: false, params: { source: expect.any(String) } });
  });
  it("counts days and rates", () => {
    expect(daysBetween("2026-02-27", "2026-03-01")).toBe(3);
    expect(eachDay("2026-02-27", "2026-03-01")).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"]);
    expect(rate(1, 3)).toBe(0.3333);
    expect(rate(1, 0)).toBe(0);
  });
});

describe("capabilities", () => {
  it("gives the reports to shop managers and administrators only", () => {
    expect(roleCan("administrator", "view_woocommerce_reports")).toBe(true);
    expect(roleCan("shop_manager", "view_woocommerce_reports")).toBe(true);
    expect(roleCan("customer", "view_woocommerce_reports")).toBe(false);
    expect(roleCan("editor", "read")).toBe(false);
    expect(restPermission(null, "view_woocommerce_reports")).toMatchObject({ code: "rest_not_logged_in", status: 401 });
    expect(restPermission({ role: "customer" }, "view_woocommerce_reports")).toMatchObject({ code: "rest_forbidden", status: 403 });
    expect(restPermission({ role: "shop_manager" }, "view_woocommerce_reports")).toBeNull();
  });
});
