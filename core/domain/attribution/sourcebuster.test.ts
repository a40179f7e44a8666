import { describe, expect, it } from "vitest";
import {
  WC_SBJS_PARAMS,
  attributionInputs,
  cookieString,
  decodeCookieValue,
  encodeCookieValue,
  parseCookieHeader,
  sbjsInit,
  type CookieWrite,
  type SbjsOptions,
  type PageLoad,
} from "./sourcebuster.ts";

const SITE = "https://www.shop.example";
const T0 = new Date("2026-03-04T05:06:07Z");
const UA = "Mozilla/5.0 (X11; Linux x86_64) Chrome/130";

/** A browser's cookie jar for one site, page after page. */
function browser(options: SbjsOptions = WC_SBJS_PARAMS) {
  const jar: Record<string, string> = {};
  let writes: CookieWrite[] = [];
  return {
    jar,
    get writes() {
      return writes;
    },
    visit(path: string, referrer = "", now = T0) {
      const page: PageLoad = { url: SITE + path, referrer, now, userAgent: UA, cookies: { ...jar } };
      const result = sbjsInit(page, options);
      writes = result.writes;
      for (const w of result.writes) jar[w.name] = w.value;
      return result.data;
    },
    endSession() {
      delete jar.sbjs_session;
    },
  };
}

describe("cookie values (docs/contract/wire.md §4.2)", () => {
  it("pairs joined by |||, encodeURIComponent plus ! ~ * ' ( ) escapes — the wire note's example exactly", () => {
    const value = encodeCookieValue(
      { typ: "utm", src: "newsletter", mdm: "email", cmp: "spring", cnt: "(none)", trm: "(none)", id: "42", plt: "plat", fmt: "fmt", tct: "tac" },
      false,
    );
    expect(value).toBe(
      "typ%3Dutm%7C%7C%7Csrc%3Dnewsletter%7C%7C%7Cmdm%3Demail%7C%7C%7Ccmp%3Dspring%7C%7C%7Ccnt%3D%28none%29%7C%7C%7Ctrm%3D%28none%29%7C%7C%7Cid%3D42%7C%7C%7Cplt%3Dplat%7C%7C%7Cfmt%3Dfmt%7C%7C%7Ctct%3Dtac",
    );
    expect(decodeCookieValue(value)).toMatchObject({ typ: "utm", cnt: "(none)", id: "42" });
    expect(encodeCookieValue({ a: "!~*'()" }, false)).toBe("a%3D%21%7E%2A%27%28%29");
  });

  it("a value is split at the first '=' and URL-decoded once more", () => {
    expect(decodeCookieValue(encodeCookieValue({ ep: "https://s.example/?a=b&c=d", src: "spring%20sale" }, false))).toEqual({
      ep: "https://s.example/?a=b&c=d",
      src: "spring sale",
    });
  });

  it("base64: the encoded value in base64 without '=' padding, detected when read", () => {
    const value = encodeCookieValue({ typ: "typein", src: "(direct)" }, true);
    expect(value).toMatch(/^[A-Za-z0-9+/]+$/);
    expect(value.endsWith("=")).toBe(false);
    expect(Buffer.from(value, "base64").toString()).toBe("typ%3Dtypein%7C%7C%7Csrc%3D%28direct%29");
    expect(decodeCookieValue(value)).toEqual({ typ: "typein", src: "(direct)" });
  });

  it("document.cookie parsing and writing", () => {
    expect(parseCookieHeader("a=1; sbjs_current=typ%3Dutm; b=x=y")).toEqual({ a: "1", sbjs_current: "typ%3Dutm", b: "x=y" });
    expect(cookieString({ name: "sbjs_udata", value: "v", expires: null, domain: ".shop.example" })).toBe("sbjs_udata=v; domain=.shop.example; path=/");
  });
});

describe("classification (docs/contract/wire.md §4.3, the cases of §4.7)", () => {
  it("a utm landing: typ utm with the raw values, first = current, session 1 page, 1 visit", () => {
    const b = browser();
    const d = b.visit(
      "/product/tie/?utm_source=newsletter&utm_medium=email&utm_campaign=spring+sale&utm_id=42&utm_source_platform=plat&utm_creative_format=fmt&utm_marketing_tactic=tac",
    );
    expect(d.current).toEqual({
      typ: "utm",
      src: "newsletter",
      mdm: "email",
      cmp: "spring+sale",
      cnt: "(none)",
      trm: "(none)",
      id: "42",
      plt: "plat",
      fmt: "fmt",
      tct: "tac",
    });
    expect(d.first).toEqual(d.current);
    expect(d.current_add).toEqual({
      fd: "2026-03-04 05:06:07",
      ep: `${SITE}/product/tie/?utm_source=newsletter&utm_medium=email&utm_campaign=spring+sale&utm_id=42&utm_source_platform=plat&utm_creative_format=fmt&utm_marketing_tactic=tac`,
      rf: "(none)",
    });
    expect(d.session).toEqual({ pgs: "1", cpg: d.current_add.ep });
    expect(d.udata).toEqual({ vst: "1", uip: "(none)", uag: UA });
    expect(b.writes.map((w) => w.name).sort()).toEqual([
      "sbjs_current",
      "sbjs_current_add",
      "sbjs_first",
      "sbjs_first_add",
      "sbjs_migrations",
      "sbjs_session",
      "sbjs_udata",
    ]);
  });

  it("lifetime 0.00001 months: every cookie is a session cookie except sbjs_session (now + 30 min); domain without www.", () => {
    const b = browser();
    b.visit("/");
    for (const w of b.writes) {
      expect(w.domain).toBe(".shop.example");
      expect(w.expires).toEqual(w.name === "sbjs_session" ? new Date(T0.getTime() + 30 * 60_000) : null);
    }
    expect(decodeCookieValue(b.jar.sbjs_migrations!)).toEqual({ "1418474375998": "1" });
  });

  it("a second page of the session: pgs 2, current and its _add unchanged, the visit count unchanged", () => {
    const b = browser();
    const first = b.visit("/?utm_source=newsletter&utm_medium=email");
    const later = new Date(T0.getTime() + 60_000);
    const second = b.visit("/checkout/", `${SITE}/`, later);
    expect(second.session).toEqual({ pgs: "2", cpg: `${SITE}/checkout/` });
    expect(second.current).toEqual(first.current);
    expect(second.current_add).toEqual(first.current_add);
    expect(second.udata.vst).toBe("1");
    expect(b.writes.some((w) => w.name === "sbjs_migrations")).toBe(false);
  });

  it("Google needs no query parameter; Bing needs q; organic re-attributes inside a session; first stays", () => {
    const b = browser();
    b.visit("/?utm_source=newsletter");
    expect(b.visit("/", "https://www.google.co.uk/").current).toMatchObject({ typ: "organic", src: "google", mdm: "organic", cmp: "(none)" });
    expect(b.visit("/", "https://www.bing.com/search?q=silk+tie").current).toMatchObject({ typ: "organic", src: "bing", mdm: "organic" });
    const d = b.visit("/", "https://www.bing.com/");
    // Bing without q inside an active session: not organic, not referral (session) → kept.
    expect(d.current.src).toBe("bing");
    expect(d.first).toMatchObject({ typ: "utm", src: "newsletter" });
    expect(browser().visit("/", "https://search.yahoo.com/search?p=ties").current).toMatchObject({ typ: "organic", src: "yahoo" });
  });

  it("t.co is a referral from twitter.com with the path as content; a referral needs no session; internal referrers are not", () => {
    const b = browser();
    expect(b.visit("/", "https://t.co/abc123").current).toMatchObject({ typ: "referral", src: "twitter.com", mdm: "referral", cnt: "/abc123" });
    expect(b.visit("/shop/", "https://blog.example.org/post").current).toMatchObject({ typ: "referral", src: "twitter.com" });
    b.endSession();
    const d = b.visit("/shop/", "https://www.blog.example.org/post");
    expect(d.current).toMatchObject({ typ: "referral", src: "blog.example.org", cnt: "/post" });
    expect(d.current_add.rf).toBe("https://www.blog.example.org/post");
    expect(d.udata.vst).toBe("2");
    b.endSession();
    expect(b.visit("/", "https://m.shop.example/x").current).toMatchObject({ typ: "referral", src: "blog.example.org" });
  });

  it("gclid: google / cpc / google_cpc; yclid: yandex", () => {
    expect(browser().visit("/?gclid=abc").current).toMatchObject({ typ: "utm", src: "google", mdm: "cpc", cmp: "google_cpc", trm: "(none)" });
    expect(browser().visit("/?yclid=1").current).toMatchObject({ typ: "utm", src: "yandex", mdm: "cpc", cmp: "yandex_cpc" });
    expect(browser().visit("/?gclid=abc&utm_source=ads").current).toMatchObject({ src: "ads", mdm: "cpc" });
  });

  it("a direct visit: typein (direct); a bare ?utm_source without '=' does not count", () => {
    expect(browser().visit("/").current).toEqual({
      typ: "typein",
      src: "(direct)",
      mdm: "(none)",
      cmp: "(none)",
      cnt: "(none)",
      trm: "(none)",
      id: "(none)",
      plt: "(none)",
      fmt: "(none)",
      tct: "(none)",
    });
    expect(browser().visit("/?utm_source").current.typ).toBe("typein");
  });

  it("base64 mode: the same answers, cookies in base64", () => {
    const b = browser({ ...WC_SBJS_PARAMS, base64: true });
    b.visit("/?utm_source=newsletter&utm_medium=email");
    const d = b.visit("/cart/", `${SITE}/`);
    expect(d.current).toMatchObject({ typ: "utm", src: "newsletter", mdm: "email" });
    expect(d.session.pgs).toBe("2");
    for (const name of ["sbjs_current", "sbjs_session", "sbjs_udata"]) expect(b.jar[name]).toMatch(/^[A-Za-z0-9+/]+$/);
  });

  it("localhost and IP addresses get host-only cookies", () => {
    const w = sbjsInit({ url: "http://127.0.0.1:3000/", referrer: "", now: T0, userAgent: UA, cookies: {} }).writes;
    expect(w.every((c) => c.domain === null)).toBe(true);
  });
});

describe("WooCommerce's 16 inputs (docs/contract/wire.md §4.4, §4.5)", () => {
  it("maps the sbjs paths; no data gives '' everywhere", () => {
    const d = browser().visit("/?utm_source=newsletter&utm_medium=email&utm_campaign=spring");
    const inputs = attributionInputs(d);
    expect(Object.keys(inputs)).toHaveLength(16);
    expect(inputs).toMatchObject({
      wc_order_attribution_source_type: "utm",
      wc_order_attribution_utm_source: "newsletter",
      wc_order_attribution_utm_campaign: "spring",
      wc_order_attribution_session_pages: "1",
      wc_order_attribution_session_count: "1",
      wc_order_attribution_referrer: "(none)",
      wc_order_attribution_user_agent: UA,
    });
    expect(Object.values(attributionInputs(null)).every((v) => v === "")).toBe(true);
  });
});
