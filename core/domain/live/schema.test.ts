import { describe, expect, it } from "vitest";
import { LIST_LANGS, LIVE_LANGS, STATUS_TEXT_COUNT } from "./constants.ts";
import { LIST_TEXTS, LIVE_TEXTS, liveLang, listLang } from "./i18n.ts";
import { sportsMatchSchema } from "./schema.ts";
import { isLiveStage } from "./stages.ts";

describe("sportsMatchSchema (docs/contract/storefront.md §3)", () => {
  it("fills defaults: abbr from the name, '?' for missing text, live from the stage", () => {
    const m = sportsMatchSchema.parse({
      slug: "a-b",
      stage: "halftime",
      live: false,
      date: 1700000000,
      home: { name: "arsenal london", img: "/x.svg", score: "2" },
      away: { name: "", abbr: "" },
      league: { slug: "epl", name: "Premier", country: null },
    });
    expect(m.home.abbr).toBe("ARS");
    expect(m.home.score).toBe(2);
    expect(m.away.name).toBe("?");
    expect(m.away.abbr).toBe("?");
    expect(m.away.score).toBeNull();
    expect(m.league.country).toBe("?");
    expect(m.live).toBe(true);
    expect(m.details).toEqual({ loading: false, show: false, events: [] });
    expect(m.matchTime).toBeNull();
  });
  it("keeps an unknown stage", () => {
    const m = sportsMatchSchema.parse({ slug: "s", stage: "abandoned", date: 0, home: {}, away: {}, league: {} });
    expect(m.stage).toBe("abandoned");
    expect(m.live).toBe(false);
  });
  it("rejects a negative score", () => {
    expect(sportsMatchSchema.safeParse({ slug: "s", stage: "live", date: 0, home: { score: -1 }, away: {}, league: {} }).success).toBe(false);
  });
});

describe("stages", () => {
  it("has the spec's live set", () => {
    for (const s of ["live", "results_only", "halftime", "pause", "3rd_quarter", "overtime", "break_time", "extra_time_halftime", "penalties"]) {
      expect(isLiveStage(s)).toBe(true);
    }
    for (const s of ["plan", "finished", "finished_penalty", "cancelled", "postponed", "nope"]) expect(isLiveStage(s)).toBe(false);
  });
});

describe("translations", () => {
  it("cover every language with 18 non-empty labels and the fixed texts", () => {
    expect(LIST_LANGS).toHaveLength(21);
    for (const lang of LIST_LANGS) {
      const t = LIST_TEXTS[lang];
      expect(t.labels).toHaveLength(18);
      for (const s of [...t.labels, t.loading, t.empty, t.detailsLater]) expect(s.trim()).not.toBe("");
    }
  });
  it("give the live widget 13 statuses and two messages per language", () => {
    expect(LIVE_LANGS).toHaveLength(9);
    for (const lang of LIVE_LANGS) {
      expect(LIVE_TEXTS[lang].statuses).toHaveLength(STATUS_TEXT_COUNT);
      expect(LIVE_TEXTS[lang].messages.every((m) => m.length > 10)).toBe(true);
    }
    expect(LIVE_TEXTS.en.messages[1]).toBe("At the moment there are no Live matches, the closest match is");
    expect(new Set(LIVE_LANGS.map((l) => LIVE_TEXTS[l].messages[0])).size).toBe(9);
  });
  it("fall back to en", () => {
    expect(liveLang("fr")).toBe("en");
    expect(liveLang("uz")).toBe("uz");
    expect(liveLang(undefined)).toBe("en");
    expect(listLang("fr")).toBe("fr");
    expect(listLang("xx")).toBe("en");
  });
});
