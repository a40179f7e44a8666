/** Test fixtures shared by the live domain tests (not shipped code paths). */
import { liveMatchSchema, type LiveMatch, type LiveMatchInput } from "./schema.ts";

export function liveMatch(slug: string, stage: string, over: Partial<LiveMatchInput> = {}): LiveMatch {
  return liveMatchSchema.parse({
    slug,
    date: "05/03/2024",
    time: "18:00",
    stage,
    matchTime: null,
    league: { country: "England", name: "Premier" },
    home: { name: "Home FC", img: "/h.svg", score: 0, periods: { "1": 0 } },
    away: { name: "Away FC", img: "/a.svg", score: 0, periods: { "1": 0 } },
    ...over,
  });
}
