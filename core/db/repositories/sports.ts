/**
 * Live sports: leagues, teams and matches (migration 0005_live.sql), for the MatchStore in core/sports/sql-store.ts.
 * Only SQL lives here; transactions, lock order and merging stay with the store.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import type { MatchTime, Periods, SportsMatch } from "../../domain/live/schema.ts";
import { isLiveStage } from "../../domain/live/stages.ts";

/** A stored match: the list widget's match without its client-side `details`. Dates are unix seconds. */
export type StoredMatch = Omit<SportsMatch, "details">;

export interface LeagueRow {
  slug: string;
  name: string;
  country: string;
  img: string;
}

export interface TeamRow {
  slug: string;
  name: string;
  img: string;
  abbr: string;
}

/** jsonb columns are selected as text: the two drivers would otherwise differ on a JSON string value such as "45+2". */
function json<T>(value: string): T {
  return JSON.parse(value) as T;
}

/** Every match column with its league and both teams. */
function selectMatches(db: Queryable) {
  return sql(db)
    .selectFrom("sport_matches as m")
    .innerJoin("sport_leagues as l", "l.slug", "m.league_slug")
    .innerJoin("sport_teams as h", "h.slug", "m.home_slug")
    .innerJoin("sport_teams as a", "a.slug", "m.away_slug")
    .select([
      "m.slug",
      raw<number>`extract(epoch FROM m.kickoff)::int`.as("kickoff"),
      "m.stage",
      raw<string>`m.match_time::text`.as("match_time"),
      "m.home_score",
      "m.away_score",
      raw<string>`m.home_periods::text`.as("home_periods"),
      raw<string>`m.away_periods::text`.as("away_periods"),
      "l.slug as league_slug",
      "l.name as league_name",
      "l.country as league_country",
      "l.image as league_image",
      "h.name as home_name",
      "h.image as home_image",
      "h.abbreviation as home_abbr",
      "a.name as away_name",
      "a.image as away_image",
      "a.abbreviation as away_abbr",
    ]);
}

type MatchRow = Awaited<ReturnType<ReturnType<typeof selectMatches>["executeTakeFirstOrThrow"]>>;

function toMatch(r: MatchRow): StoredMatch {
  return {
    slug: r.slug,
    matchTime: json<MatchTime>(r.match_time),
    stage: r.stage,
    live: isLiveStage(r.stage),
    date: Number(r.kickoff),
    home: { img: r.home_image, abbr: r.home_abbr, name: r.home_name, periods: json<Periods>(r.home_periods), score: r.home_score },
    away: { img: r.away_image, abbr: r.away_abbr, name: r.away_name, periods: json<Periods>(r.away_periods), score: r.away_score },
    league: { slug: r.league_slug, name: r.league_name, country: r.league_country, img: r.league_image },
  };
}

export async function upsertLeague(tx: Queryable, league: LeagueRow): Promise<void> {
  await sql(tx)
    .insertInto("sport_leagues")
    .values({ slug: league.slug, name: league.name, country: league.country, image: league.img })
    .onConflict((oc) =>
      oc.column("slug").doUpdateSet((eb) => ({ name: eb.ref("excluded.name"), country: eb.ref("excluded.country"), image: eb.ref("excluded.image") })),
    )
    .execute();
}

export async function upsertTeam(tx: Queryable, team: TeamRow): Promise<void> {
  await sql(tx)
    .insertInto("sport_teams")
    .values({ slug: team.slug, name: team.name, image: team.img, abbreviation: team.abbr })
    .onConflict((oc) =>
      oc
        .column("slug")
        .doUpdateSet((eb) => ({ name: eb.ref("excluded.name"), image: eb.ref("excluded.image"), abbreviation: eb.ref("excluded.abbreviation") })),
    )
    .execute();
}

export interface MatchWrite {
  slug: string;
  leagueSlug: string;
  homeSlug: string;
  awaySlug: string;
  match: Pick<StoredMatch, "date" | "stage" | "matchTime" | "home" | "away">;
}

/** Inserts the match or overwrites every column of the stored one. */
export async function upsertMatch(tx: Queryable, w: MatchWrite): Promise<void> {
  const { match } = w;
  await sql(tx)
    .insertInto("sport_matches")
    .values({
      slug: w.slug,
      league_slug: w.leagueSlug,
      home_slug: w.homeSlug,
      away_slug: w.awaySlug,
      kickoff: raw<Date>`to_timestamp(${match.date})`,
      stage: match.stage,
      match_time: raw`${JSON.stringify(match.matchTime ?? null)}::jsonb`,
      home_score: match.home.score,
      away_score: match.away.score,
      home_periods: raw`${JSON.stringify(match.home.periods)}::jsonb`,
      away_periods: raw`${JSON.stringify(match.away.periods)}::jsonb`,
    })
    .onConflict((oc) =>
      oc.column("slug").doUpdateSet((eb) => ({
        league_slug: eb.ref("excluded.league_slug"),
        home_slug: eb.ref("excluded.home_slug"),
        away_slug: eb.ref("excluded.away_slug"),
        kickoff: eb.ref("excluded.kickoff"),
        stage: eb.ref("excluded.stage"),
        match_time: eb.ref("excluded.match_time"),
        home_score: eb.ref("excluded.home_score"),
        away_score: eb.ref("excluded.away_score"),
        home_periods: eb.ref("excluded.home_periods"),
        away_periods: eb.ref("excluded.away_periods"),
        updated_at: raw`now()`,
      })),
    )
    .execute();
}

/** One match; with `lock`, its sport_matches row stays locked (FOR UPDATE OF m) until the transaction ends. */
export async function findMatch(db: Queryable, slug: string, opts: { lock?: boolean } = {}): Promise<StoredMatch | undefined> {
  let query = selectMatches(db).where("m.slug", "=", slug);
  if (opts.lock) query = query.forUpdate("m");
  const row = await query.executeTakeFirst();
  return row && toMatch(row);
}

/** Every match in one of `stages`, whatever its day, by kick-off then slug. */
export async function matchesInStages(db: Queryable, stages: readonly string[]): Promise<StoredMatch[]> {
  const rows = await selectMatches(db)
    .where("m.stage", "=", raw<string>`ANY(${[...stages]}::text[])`)
    .orderBy("m.kickoff")
    .orderBy("m.slug")
    .execute();
  return rows.map(toMatch);
}

/** The matches kicking off in [start, end) (unix seconds), by kick-off then slug. */
export async function matchesKickingOffBetween(db: Queryable, start: number, end: number): Promise<StoredMatch[]> {
  const rows = await selectMatches(db)
    .where("m.kickoff", ">=", raw<Date>`to_timestamp(${start})`)
    .where("m.kickoff", "<", raw<Date>`to_timestamp(${end})`)
    .orderBy("m.kickoff")
    .orderBy("m.slug")
    .execute();
  return rows.map(toMatch);
}

/** Writes a match's live state (stage, time, scores, periods). */
export async function updateMatchState(tx: Queryable, slug: string, m: Pick<StoredMatch, "stage" | "matchTime" | "home" | "away">): Promise<void> {
  await sql(tx)
    .updateTable("sport_matches")
    .set({
      stage: m.stage,
      match_time: raw`${JSON.stringify(m.matchTime ?? null)}::jsonb`,
      home_score: m.home.score,
      away_score: m.away.score,
      home_periods: raw`${JSON.stringify(m.home.periods)}::jsonb`,
      away_periods: raw`${JSON.stringify(m.away.periods)}::jsonb`,
      updated_at: raw`now()`,
    })
    .where("slug", "=", slug)
    .execute();
}
