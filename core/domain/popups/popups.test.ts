import { describe, expect, it } from "vitest";
import { parsePopupSettings, type PopupSettings, type PopupSettingsInput } from "./settings.ts";
import {
  browserOf,
  browsersPass,
  cartPass,
  deviceOf,
  devicesPass,
  failedBrowserTiming,
  loggedInPass,
  pageViewsPass,
  pagesPass,
  schedulePass,
  serverConditionsPass,
  sessionsPass,
  sourcesPass,
  timesPass,
  countsOnOpen,
  urlPass,
  zonedTime,
} from "./conditions.ts";
import {
  addImpression,
  countPageView,
  disable,
  impressions,
  isDisabled,
  pageViews,
  parseStore,
  readCount,
  rememberShown,
  sessions,
  shownThisSession,
} from "./storage.ts";
import { parseLinkAction } from "./link-actions.ts";
import { LINK_ACTION_HREF } from "./link-action-href.ts";
import { adblockDetected, baitId, clickFires, exitIntentFires, ms, scrollingFires } from "./triggers.ts";

const base: PopupSettingsInput = { title: "Test", content: { heading: "Hello" } };
const settings = (extra: Partial<PopupSettingsInput> = {}): PopupSettings => {
  const r = parsePopupSettings({ ...base, ...extra });
  if (!r.ok) throw new Error(r.message);
  return r.value;
};
const refusal = (input: unknown) => {
  const r = parsePopupSettings(input);
  return r.ok ? null : r.message;
};

describe("popup settings", () => {
  it("fills the defaults of §3 'Popup settings'", () => {
    const s = settings();
    expect(s.enabled).toBe(true);
    expect(s.display).toMatchObject({ close_button_position: "inside", a11y_navigation: true, close_button_delay: 0, avoid_multiple_popups: false });
    expect(s.conditions.pages).toEqual([]);
  });

  it("refuses unknown keys, wrong types, an invalid regex, a negative delay and an impossible schedule, naming the field", () => {
    expect(refusal({ ...base, colour: "red" })).toBe("colour is not a popup setting");
    expect(refusal({ ...base, display: { close_buton_delay: 1 } })).toBe("display.close_buton_delay is not a popup setting");
    expect(refusal({ ...base, display: { prevent_scroll: "yes" } })).toBe("display.prevent_scroll must be a boolean");
    expect(refusal({ ...base, triggers: { page_load: { delay: -1 } } })).toBe("triggers.page_load.delay must be 0 or more");
    expect(refusal({ ...base, triggers: { page_load: {} } })).toBe("triggers.page_load.delay is required");
    expect(refusal({ ...base, timing: { url: { action: "regex", url: "([a-z" } } })).toBe("timing.url.url must be a valid regular expression");
    expect(refusal({ ...base, timing: { schedule: { start_date: "2026-12-02T10:00", end_date: "2026-12-01T10:00" } } })).toBe(
      "timing.schedule.end_date must be after start_date",
    );
    expect(refusal({ ...base, timing: { schedule: { start_date: "2026-02-30T10:00" } } })).toBe("timing.schedule.start_date must be a real date and time");
    expect(refusal({ ...base, timing: { times: { times: 2, period: "year" } } })).toMatch(/^timing\.times\.period must be one of "", "day"/);
    expect(refusal({ ...base, timing: { click: {} } })).toBe("timing.click is not a popup setting");
    expect(refusal({ ...base, triggers: { click: { times: 1.5 } } })).toBe("triggers.click.times must be a whole number");
    expect(refusal({ title: "x" })).toBe("content is required");
    expect(refusal({ ...base, content: { heading: "x", cta: { label: "Go", href: "javascript:alert(1)" } } })).toBe(
      "content.cta.href must be a path, an http(s) address or a #link action",
    );
    expect(refusal({ ...base, conditions: { pages: [{ type: "include", name: "cart", id: 3 }] } })).toBe(
      "conditions.pages.0.id is only for category and product rules",
    );
    expect(refusal({ ...base, conditions: { cart: { subtotal_above: 500, subtotal_below: 500 } } })).toBe(
      "conditions.cart.subtotal_below must be more than subtotal_above",
    );
    expect(refusal({ ...base, display: { open_selector: "<script>" } })).toBe("display.open_selector must be a CSS selector");
    expect(refusal("nope")).toBe("(settings) must be a JSON object");
  });
});

describe("timing conditions", () => {
  it("page_views and sessions: from the n-th on", () => {
    expect(pageViewsPass({ views: 3 }, 2)).toBe(false);
    expect(pageViewsPass({ views: 3 }, 3)).toBe(true);
    expect(sessionsPass({ sessions: 2 }, 1)).toBe(false);
    expect(sessionsPass({ sessions: 2 }, 5)).toBe(true);
  });

  it("url: contains (show), does not contain (hide), regex; an invalid pattern fails closed", () => {
    expect(urlPass({ action: "show", url: "newsletter" }, "https://a.example/newsletter/")).toBe(true);
    expect(urlPass({ action: "show", url: "newsletter" }, "https://a.example/")).toBe(false);
    expect(urlPass({ action: "hide", url: "newsletter" }, "https://a.example/newsletter/")).toBe(false);
    expect(urlPass({ action: "hide", url: "newsletter" }, "")).toBe(true);
    expect(urlPass({ action: "regex", url: "^https://(www\\.)?google\\." }, "https://www.google.nl/")).toBe(true);
    expect(urlPass({ action: "regex", url: "^https://(www\\.)?google\\." }, "https://bing.com/")).toBe(false);
    expect(urlPass({ action: "regex", url: "([" }, "anything")).toBe(false);
  });

  it("sources: internal, external, the five search engines; all three = always", () => {
    const host = "shop.example";
    expect(sourcesPass({ sources: ["internal"] }, "https://shop.example/cart/", host)).toBe(true);
    expect(sourcesPass({ sources: ["internal"] }, "https://www.shop.example/", "www.shop.example")).toBe(true);
    expect(sourcesPass({ sources: ["external"] }, "https://shop.example/cart/", host)).toBe(false);
    expect(sourcesPass({ sources: ["external"] }, "https://blog.example/", host)).toBe(true);
    for (const engine of ["google.com", "www.yahoo.com", "bing.com", "yandex.ru", "baidu.com"]) {
      expect(sourcesPass({ sources: ["search"] }, `https://${engine}/search?q=x`, host)).toBe(true);
    }
    expect(sourcesPass({ sources: ["search"] }, "https://duckduckgo.com/", host)).toBe(false);
    expect(sourcesPass({ sources: ["search", "internal"] }, "", host)).toBe(false);
    expect(sourcesPass({ sources: ["search", "internal", "external"] }, "", host)).toBe(true);
  });

  it("logged_in: guests pass; 'all' hides from every signed-in user; listed roles hide from those roles", () => {
    expect(loggedInPass({ users: "all", roles: [] }, null)).toBe(true);
    expect(loggedInPass({ users: "all", roles: [] }, { role: "customer" })).toBe(false);
    expect(loggedInPass({ users: "custom", roles: ["administrator"] }, { role: "administrator" })).toBe(false);
    expect(loggedInPass({ users: "custom", roles: ["administrator"] }, { role: "customer" })).toBe(true);
  });

  it("devices by width: mobile ≤ 767, tablet ≤ 1024", () => {
    expect([400, 767, 768, 1024, 1025, 1280].map(deviceOf)).toEqual(["mobile", "mobile", "tablet", "tablet", "desktop", "desktop"]);
    expect(devicesPass({ devices: ["desktop"] }, 1280)).toBe(true);
    expect(devicesPass({ devices: ["desktop"] }, 400)).toBe(false);
  });

  it("times: fewer impressions than allowed; counted on open only when count is 'open'", () => {
    expect(timesPass({ times: 2, period: "", count: "" }, 1)).toBe(true);
    expect(timesPass({ times: 2, period: "", count: "" }, 2)).toBe(false);
    expect(countsOnOpen({ times: 1, period: "", count: "open" })).toBe(true);
    expect(countsOnOpen({ times: 1, period: "", count: "" })).toBe(false);
    expect(countsOnOpen({ times: 1, period: "", count: "close" })).toBe(false);
    expect(countsOnOpen(undefined)).toBe(false);
  });

  it("browsers: by family, Edge and Opera before Chrome, Chrome before Safari", () => {
    const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    expect(browserOf(chrome)).toBe("chrome");
    expect(browserOf(`${chrome} Edg/131.0.0.0`)).toBe("edge");
    expect(browserOf(`${chrome} OPR/114.0.0.0`)).toBe("opera");
    expect(browserOf("Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15")).toBe("safari");
    expect(browserOf("Mozilla/5.0 (X11; rv:133.0) Gecko/20100101 Firefox/133.0")).toBe("firefox");
    expect(browserOf("Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko")).toBe("ie");
    expect(browsersPass({ browsers: "all", browsers_options: [] }, "curl/8")).toBe(true);
    expect(browsersPass({ browsers: "custom", browsers_options: ["firefox"] }, chrome)).toBe(false);
    expect(browsersPass({ browsers: "custom", browsers_options: ["chrome"] }, chrome)).toBe(true);
  });

  it("schedule: start inclusive, end exclusive, in the shop's timezone; an unknown zone fails closed", () => {
    expect(zonedTime("2026-11-25T10:00", "UTC")).toBe(Date.parse("2026-11-25T10:00:00Z"));
    expect(zonedTime("2026-11-25T10:00", "Europe/Amsterdam")).toBe(Date.parse("2026-11-25T09:00:00Z"));
    expect(zonedTime("2026-07-01T10:00", "Europe/Amsterdam")).toBe(Date.parse("2026-07-01T08:00:00Z"));
    expect(zonedTime("2026-11-25T10:00", "America/New_York")).toBe(Date.parse("2026-11-25T15:00:00Z"));
    const s = { start_date: "2026-11-25T10:00", end_date: "2026-11-26T10:00" };
    expect(schedulePass(s, new Date("2026-11-25T08:59:59Z"), "Europe/Amsterdam")).toBe(false);
    expect(schedulePass(s, new Date("2026-11-25T09:00:00Z"), "Europe/Amsterdam")).toBe(true);
    expect(schedulePass(s, new Date("2026-11-26T08:59:00Z"), "Europe/Amsterdam")).toBe(true);
    expect(schedulePass(s, new Date("2026-11-26T09:00:00Z"), "Europe/Amsterdam")).toBe(false);
    expect(schedulePass({ end_date: "2026-11-26T10:00" }, new Date("2020-01-01T00:00:00Z"), "UTC")).toBe(true);
    expect(schedulePass(s, new Date("2026-11-25T12:00:00Z"), "Mars/Olympus")).toBe(false);
  });

  it("failedBrowserTiming names the first condition that fails", () => {
    const facts = {
      pageViews: 1,
      sessions: 1,
      referrer: "",
      host: "shop.example",
      viewportWidth: 1280,
      userAgent: "Chrome/1",
      now: new Date("2026-11-25T10:00:00Z"),
      timeZone: "UTC",
      impressions: 0,
    };
    expect(failedBrowserTiming({}, facts)).toBeNull();
    expect(failedBrowserTiming({ page_views: { views: 2 } }, facts)).toBe("page_views");
    expect(failedBrowserTiming({ page_views: { views: 1 }, devices: { devices: ["mobile"] } }, facts)).toBe("devices");
    expect(failedBrowserTiming({ times: { times: 1, period: "", count: "" } }, { ...facts, impressions: 1 })).toBe("times");
    expect(failedBrowserTiming({ schedule: { end_date: "2026-11-25T09:00" } }, facts)).toBe("schedule");
    expect(failedBrowserTiming({ sources: { sources: ["internal"] } }, facts)).toBe("sources");
    expect(failedBrowserTiming({ url: { action: "regex", url: "(" } }, facts)).toBe("url");
    expect(failedBrowserTiming({ sessions: { sessions: 3 } }, facts)).toBe("sessions");
    expect(failedBrowserTiming({ browsers: { browsers: "custom", browsers_options: ["firefox"] } }, facts)).toBe("browsers");
  });
});

describe("display conditions (server)", () => {
  it("pages: no include rule = the entire site; an exclude rule wins; ids narrow category and product rules", () => {
    expect(pagesPass([], { kind: "other" })).toBe(true);
    expect(pagesPass([{ type: "include", name: "product" }], { kind: "product", id: 5 })).toBe(true);
    expect(pagesPass([{ type: "include", name: "product" }], { kind: "cart" })).toBe(false);
    expect(pagesPass([{ type: "include", name: "product", id: 6 }], { kind: "product", id: 5 })).toBe(false);
    expect(pagesPass([{ type: "include", name: "category", id: 2 }], { kind: "category", id: 2 })).toBe(true);
    expect(
      pagesPass(
        [
          { type: "include", name: "general" },
          { type: "exclude", name: "checkout" },
        ],
        { kind: "checkout" },
      ),
    ).toBe(false);
    expect(pagesPass([{ type: "exclude", name: "cart" }], { kind: "shop" })).toBe(true);
  });

  it("cart: subtotal strictly above / below, contains a product or a category; every set condition must hold", () => {
    const cart = { subtotal: 1500, productIds: [7], categoryIds: [2, 3] };
    const c = (x: object) => ({ contains_products: [], contains_categories: [], ...x });
    expect(cartPass(c({ subtotal_above: 1499 }), cart)).toBe(true);
    expect(cartPass(c({ subtotal_above: 1500 }), cart)).toBe(false);
    expect(cartPass(c({ subtotal_below: 1501 }), cart)).toBe(true);
    expect(cartPass(c({ subtotal_below: 1500 }), cart)).toBe(false);
    expect(cartPass(c({ contains_products: [8, 7] }), cart)).toBe(true);
    expect(cartPass(c({ contains_products: [8] }), cart)).toBe(false);
    expect(cartPass(c({ contains_categories: [3] }), cart)).toBe(true);
    expect(cartPass(c({ contains_categories: [3], subtotal_above: 5000 }), cart)).toBe(false);
    expect(cartPass(c({ contains_categories: [9] }), { subtotal: 0, productIds: [], categoryIds: [] })).toBe(false);
  });

  it("serverConditionsPass: enabled, logged_in, schedule, pages and cart together", () => {
    const facts = { user: null, page: { kind: "product" as const, id: 5 }, cart: null, now: new Date("2026-11-25T10:00:00Z"), timeZone: "UTC" };
    expect(serverConditionsPass(settings(), facts)).toBe(true);
    expect(serverConditionsPass(settings({ enabled: false }), facts)).toBe(false);
    expect(serverConditionsPass(settings({ timing: { logged_in: { users: "all" } } }), { ...facts, user: { role: "customer" } })).toBe(false);
    expect(serverConditionsPass(settings({ timing: { schedule: { start_date: "2026-12-01T00:00" } } }), facts)).toBe(false);
    expect(serverConditionsPass(settings({ conditions: { pages: [{ type: "include", name: "cart" }] } }), facts)).toBe(false);
    const withCart = settings({ conditions: { cart: { contains_products: [7] } } });
    expect(serverConditionsPass(withCart, facts)).toBe(false);
    expect(serverConditionsPass(withCart, { ...facts, cart: { subtotal: 100, productIds: [7], categoryIds: [] } })).toBe(true);
  });
});

describe("browser state (§4 'Popups')", () => {
  it("a tampered or foreign storage value is treated as absent", () => {
    expect(parseStore("not json")).toEqual({});
    expect(parseStore("[1,2]")).toEqual({});
    expect(parseStore(null)).toEqual({});
    for (const v of ["abc", 1e300, -1, 2.5, Infinity, null, {}, "3"]) expect(readCount(v)).toBe(0);
    expect(readCount(7)).toBe(7);
    const local = { popup_4_times: "abc", pageViews: 1e20, __expiration: "x" };
    expect(impressions(local, {}, 4, "", 0)).toBe(0);
    expect(pageViews(local)).toBe(0);
    expect(impressions({ popup_4_times: 3, __expiration: { popup_4_times: "soon" } }, {}, 4, "day", 0)).toBe(0);
    // An expiry further away than the period can reach was not written by us.
    expect(impressions({ popup_4_times: 3, __expiration: { popup_4_times: 1e15 } }, {}, 4, "day", 0)).toBe(0);
    expect(shownThisSession({ popups_shown: [{ id: "x", at: 1 }, { id: 3, at: 2 }, 5] })).toEqual([{ id: 3, at: 2 }]);
  });

  it("page views count every page, sessions once per browser session", () => {
    const local = {};
    let session = {};
    countPageView(local, session);
    countPageView(local, session);
    expect([pageViews(local), sessions(local)]).toEqual([2, 1]);
    session = {};
    countPageView(local, session);
    expect([pageViews(local), sessions(local)]).toEqual([3, 2]);
  });

  it("impressions per period: the window starts at the first impression and lasts the §9 period", () => {
    const local = {};
    const session = {};
    const day = 86_400_000;
    addImpression(local, session, 4, "day", 1000);
    addImpression(local, session, 4, "day", 2000);
    expect(impressions(local, session, 4, "day", 2000)).toBe(2);
    expect(impressions(local, session, 4, "day", 1000 + day - 1)).toBe(2);
    expect(impressions(local, session, 4, "day", 1000 + day)).toBe(0);
    addImpression(local, session, 4, "day", 1000 + day);
    expect(impressions(local, session, 4, "day", 1000 + day)).toBe(1);
    addImpression(local, session, 5, "week", 0);
    expect(impressions(local, session, 5, "week", 604_800_000 - 1)).toBe(1);
    expect(impressions(local, session, 5, "week", 604_800_000)).toBe(0);
    addImpression(local, session, 6, "month", 0);
    expect(impressions(local, session, 6, "month", 2_628_288_000 - 1)).toBe(1);
    addImpression(local, session, 7, "session", 0);
    expect(impressions(local, session, 7, "session", 0)).toBe(1);
    expect(impressions(local, {}, 7, "session", 0)).toBe(0);
    addImpression(local, session, 8, "", 0);
    expect(impressions(local, session, 8, "", 1e12)).toBe(1);
  });

  it("'do not show again' per popup, and the popups shown this session", () => {
    const local = {};
    disable(local, 3);
    expect(isDisabled(local, 3)).toBe(true);
    expect(isDisabled(local, 4)).toBe(false);
    expect(isDisabled({ popup_4_disable: "true" }, 4)).toBe(false);
    const session = {};
    rememberShown(session, 3, 10);
    rememberShown(session, 4, 20);
    rememberShown(session, 3, 30);
    expect(shownThisSession(session)).toEqual([
      { id: 4, at: 20 },
      { id: 3, at: 30 },
    ]);
  });
});

describe("link actions", () => {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64");
  it("reads the short forms", () => {
    expect(parseLinkAction("#popup:open:12")).toEqual({ action: "popup:open", id: 12, toggle: false });
    expect(parseLinkAction("#popup:close")).toEqual({ action: "popup:close", doNotShowAgain: false });
    expect(parseLinkAction("#popup:close:do_not_show_again")).toEqual({ action: "popup:close", doNotShowAgain: true });
    expect(parseLinkAction("#off_canvas:toggle:filters")).toEqual({ action: "off_canvas:toggle", id: "filters" });
    expect(parseLinkAction("#reload-page")).toEqual({ action: "reload-page" });
  });

  it("reads the plugin's form, plain and URL-encoded", () => {
    const href = `#elementor-action:action=popup:open&settings=${b64({ id: "12", toggle: true })}`;
    expect(parseLinkAction(href)).toEqual({ action: "popup:open", id: 12, toggle: true });
    expect(parseLinkAction(`#${encodeURIComponent(href.slice(1))}`)).toEqual({ action: "popup:open", id: 12, toggle: true });
    expect(parseLinkAction(`#elementor-action:action=popup:close&settings=${b64({ do_not_show_again: "yes" })}`)).toEqual({
      action: "popup:close",
      doNotShowAgain: true,
    });
    expect(parseLinkAction(`#elementor-action:action=off_canvas:open&settings=${b64({ id: "side" })}`)).toEqual({ action: "off_canvas:open", id: "side" });
    expect(parseLinkAction("#elementor-action%3Aaction%3Dreload-page")).toEqual({ action: "reload-page" });
    expect(LINK_ACTION_HREF.test("#elementor-action%3Aaction%3Dreload-page")).toBe(true);
    expect(LINK_ACTION_HREF.test("#content")).toBe(false);
  });

  it("anything else is no action", () => {
    for (const href of [
      "#content",
      "/shop/",
      "#popup:open:abc",
      "#popup:open:0",
      "#popup:open:99999999999",
      "#popup:close:maybe",
      "#off_canvas:open:<b>",
      "#off_canvas:explode:x",
      "#elementor-action:action=popup:open&settings=!!!",
      "#elementor-action:action=lightbox&settings=e30=",
      "#elementor-action%3A%E0%A4%A",
    ]) {
      expect(parseLinkAction(href), href).toBeNull();
    }
  });
});

describe("trigger rules", () => {
  const page = { documentHeight: 3000, viewportHeight: 1000 };
  it("scrolling: down fires at the offset share of the scrollable height; up fires on any upward scroll", () => {
    const down = { direction: "down" as const, offset: 50 };
    expect(scrollingFires(down, { ...page, lastY: 0, y: 999 })).toBe(false);
    expect(scrollingFires(down, { ...page, lastY: 0, y: 1000 })).toBe(true);
    expect(scrollingFires(down, { ...page, lastY: 1200, y: 1100 })).toBe(false);
    const up = { direction: "up" as const, offset: 50 };
    expect(scrollingFires(up, { ...page, lastY: 100, y: 90 })).toBe(true);
    expect(scrollingFires(up, { ...page, lastY: 90, y: 100 })).toBe(false);
    expect(scrollingFires(down, { documentHeight: 500, viewportHeight: 900, lastY: 0, y: 1 })).toBe(true);
  });

  it("click fires on the n-th click only; exit intent at the top edge; the adblock bait", () => {
    expect([1, 2, 3, 4].map((n) => clickFires({ times: 3 }, n))).toEqual([false, false, true, false]);
    expect(exitIntentFires({ clientY: 0, leftDocument: true })).toBe(true);
    expect(exitIntentFires({ clientY: 300, leftDocument: true })).toBe(false);
    expect(exitIntentFires({ clientY: -5, leftDocument: false })).toBe(false);
    expect(baitId(() => 0.999999)).toBe("zzzzzz");
    expect(baitId(Math.random)).toMatch(/^[a-z]{6}$/);
    const shown = { attached: true, height: 1, display: "block", visibility: "visible" };
    expect(adblockDetected(shown)).toBe(false);
    expect(adblockDetected({ ...shown, height: 0 })).toBe(true);
    expect(adblockDetected({ ...shown, display: "none" })).toBe(true);
    expect(adblockDetected({ ...shown, attached: false })).toBe(true);
    expect(ms(0.25)).toBe(250);
    expect(ms(-1)).toBe(0);
  });
});
