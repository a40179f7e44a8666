/**
 * The MatchStore on the shop's database (migration 0005_live.sql): leagues,
 * teams and matches in their own tables. Each method is the SQL the header of
 * store.ts promises (written in core/db/repositories/sports.ts). Concurrent writers are safe: `applyUpdate` locks
 * the match row (SELECT … FOR UPDATE) for its read-merge-write, so two updates of one
 * match are applied one after the other and neither is lost; `upsert` writes
 * the three rows with INSERT … ON CONFLICT in one transaction.
 */
import type { Db } from "../db/client.ts";
import { findMatch, matchesInStages, matchesKickingOffBetween, updateMatchState, upsertLeague, upsertMatch, upsertTeam } from "../db/repositories/sports.ts";
import { LIVE_STAGES } from "../domain/live/constants.ts";
import type { LiveUpdate } from "../domain/live/schema.ts";
import { mergeUpdate } from "../domain/live/update.ts";
import { slugify } from "./leagues.ts";
import { dayWindow, type MatchRecord, type MatchStore } from "./store.ts";

/** Teams are keyed by their name's slug, so every match of one club shares its row. */
export function teamSlug(name: string): string {
  return slugify(name) || "unknown-team";
}

const teamRow = (team: MatchRecord["home"]) => ({ slug: teamSlug(team.name), name: team.name, img: team.img, abbr: team.abbr });

export function createSqlMatchStore(db: Db): MatchStore {
  const liveStages = [...LIVE_STAGES];
  return {
    async upsert(match) {
      await db.transaction(async (tx) => {
        const league = match.league;
        const leagueSlug = league.slug && league.slug !== "?" ? league.slug : slugify(`${league.country} ${league.name}`) || "unknown-league";
        await upsertLeague(tx, { slug: leagueSlug, name: league.name, country: league.country, img: league.img });
        // Always in slug order, so two upserts sharing both clubs cannot deadlock on the team rows.
        const [first, second] = teamSlug(match.home.name) <= teamSlug(match.away.name) ? [match.home, match.away] : [match.away, match.home];
        await upsertTeam(tx, teamRow(first));
        await upsertTeam(tx, teamRow(second));
        await upsertMatch(tx, { slug: match.slug, leagueSlug, homeSlug: teamSlug(match.home.name), awaySlug: teamSlug(match.away.name), match });
      });
    },

    async get(slug) {
      return findMatch(db, slug);
    },

    async list(period, nowMs, tzOffsetMinutes = 0) {
      if (period === "live") return matchesInStages(db, liveStages);
      const [start, end] = dayWindow(period, nowMs, tzOffsetMinutes);
      return matchesKickingOffBetween(db, start, end);
    },

    async applyUpdate(update: LiveUpdate) {
      return db.transaction(async (tx) => {
        const current = await findMatch(tx, update.slug, { lock: true });
        if (!current) return undefined;
        const next = mergeUpdate(current, update);
        await updateMatchState(tx, update.slug, next);
        return next;
      });
    },
  };
}
