/**
 * The MatchStore on the shop's database (migration 0005_live.sql): leagues,
 * teams and matches in their own tables. Each method is the SQL the header of
 * store.ts promises. Concurrent writers are safe: `applyUpdate` locks the match
 * row (SELECT … FOR UPDATE) for its read-merge-write, so two updates of one
 * match are applied one after the other and neither is lost; `upsert` writes
 * the three rows with INSERT … ON CONFLICT in one transaction.
 */
import type { Db, Queryable } from "../db/client.ts";
import { LIVE_STAGES } from "../domain/live/constants.ts";
import type { LiveUpdate, MatchTime, Periods } from "../domain/live/schema.ts";
import { isLiveStage } from "../domain/live/stages.ts";
import { mergeUpdate } from "../domain/live/update.ts";
import { slugify } from "./leagues.ts";
import { dayWindow, type MatchRecord, type MatchStore } from "./store.ts";

interface MatchRow {
  slug: string;
  kickoff: number;
  stage: string;
  match_time: string;
  home_score: number | null;
  away_score: number | null;
  home_periods: string;
  away_periods: string;
  league_slug: string;
  league_name: string;
  league_country: string;
  league_image: string;
  home_name: string;
  home_image: string;
  home_abbr: string;
  away_name: string;
  away_image: string;
  away_abbr: string;
}

const SELECT = `
  SELECT m.slug, extract(epoch FROM m.kickoff)::int AS kickoff, m.stage, m.match_time::text AS match_time,
         m.home_score, m.away_score, m.home_periods::text AS home_periods, m.away_periods::text AS away_periods,
         l.slug AS league_slug, l.name AS league_name, l.country AS league_country, l.image AS league_image,
         h.name AS home_name, h.image AS home_image, h.abbreviation AS home_abbr,
         a.name AS away_name, a.image AS away_image, a.abbreviation AS away_abbr
    FROM sport_matches m
    JOIN sport_leagues l ON l.slug = m.league_slug
    JOIN sport_teams h ON h.slug = m.home_slug
    JOIN sport_teams a ON a.slug = m.away_slug`;

/** jsonb columns are selected as text: the two drivers would otherwise differ on a JSON string value such as "45+2". */
function json<T>(value: string): T {
  return JSON.parse(value) as T;
}

function toRecord(r: MatchRow): MatchRecord {
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

/** Teams are keyed by their name's slug, so every match of one club shares its row. */
export function teamSlug(name: string): string {
  return slugify(name) || "unknown-team";
}

async function upsertTeam(tx: Queryable, team: MatchRecord["home"]): Promise<string> {
  const slug = teamSlug(team.name);
  await tx.query(
    `INSERT INTO sport_teams (slug, name, image, abbreviation) VALUES ($1, $2, $3, $4)
     ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name, image = EXCLUDED.image, abbreviation = EXCLUDED.abbreviation`,
    [slug, team.name, team.img, team.abbr],
  );
  return slug;
}

export function createSqlMatchStore(db: Db): MatchStore {
  const liveStages = [...LIVE_STAGES];
  return {
    async upsert(match) {
      await db.transaction(async (tx) => {
        const league = match.league;
        const leagueSlug = league.slug && league.slug !== "?" ? league.slug : slugify(`${league.country} ${league.name}`) || "unknown-league";
        await tx.query(
          `INSERT INTO sport_leagues (slug, name, country, image) VALUES ($1, $2, $3, $4)
           ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name, country = EXCLUDED.country, image = EXCLUDED.image`,
          [leagueSlug, league.name, league.country, league.img],
        );
        // Always in slug order, so two upserts sharing both clubs cannot deadlock on the team rows.
        const [first, second] = teamSlug(match.home.name) <= teamSlug(match.away.name) ? [match.home, match.away] : [match.away, match.home];
        await upsertTeam(tx, first);
        await upsertTeam(tx, second);
        await tx.query(
          `INSERT INTO sport_matches (slug, league_slug, home_slug, away_slug, kickoff, stage, match_time, home_score, away_score, home_periods, away_periods)
           VALUES ($1, $2, $3, $4, to_timestamp($5), $6, $7::jsonb, $8, $9, $10::jsonb, $11::jsonb)
           ON CONFLICT (slug) DO UPDATE SET
             league_slug = EXCLUDED.league_slug, home_slug = EXCLUDED.home_slug, away_slug = EXCLUDED.away_slug,
             kickoff = EXCLUDED.kickoff, stage = EXCLUDED.stage, match_time = EXCLUDED.match_time,
             home_score = EXCLUDED.home_score, away_score = EXCLUDED.away_score,
             home_periods = EXCLUDED.home_periods, away_periods = EXCLUDED.away_periods, updated_at = now()`,
          [
            match.slug, leagueSlug, teamSlug(match.home.name), teamSlug(match.away.name), match.date, match.stage,
            JSON.stringify(match.matchTime ?? null), match.home.score, match.away.score,
            JSON.stringify(match.home.periods), JSON.stringify(match.away.periods),
          ],
        );
      });
    },

    async get(slug) {
      const [row] = await db.query<MatchRow>(`${SELECT} WHERE m.slug = $1`, [slug]);
      return row && toRecord(row);
    },

    async list(period, nowMs, tzOffsetMinutes = 0) {
      if (period === "live") {
        const rows = await db.query<MatchRow>(`${SELECT} WHERE m.stage = ANY($1::text[]) ORDER BY m.kickoff, m.slug`, [liveStages]);
        return rows.map(toRecord);
      }
      const [start, end] = dayWindow(period, nowMs, tzOffsetMinutes);
      const rows = await db.query<MatchRow>(
        `${SELECT} WHERE m.kickoff >= to_timestamp($1) AND m.kickoff < to_timestamp($2) ORDER BY m.kickoff, m.slug`,
        [start, end],
      );
      return rows.map(toRecord);
    },

    async applyUpdate(update: LiveUpdate) {
      return db.transaction(async (tx) => {
        const [row] = await tx.query<MatchRow>(`${SELECT} WHERE m.slug = $1 FOR UPDATE OF m`, [update.slug]);
        if (!row) return undefined;
        const next = mergeUpdate(toRecord(row), update);
        await tx.query(
          `UPDATE sport_matches SET stage = $2, match_time = $3::jsonb, home_score = $4, away_score = $5,
                  home_periods = $6::jsonb, away_periods = $7::jsonb, updated_at = now()
            WHERE slug = $1`,
          [
            update.slug, next.stage, JSON.stringify(next.matchTime ?? null), next.home.score, next.away.score,
            JSON.stringify(next.home.periods), JSON.stringify(next.away.periods),
          ],
        );
        return next;
      });
    },
  };
}
