/**
 * What the server needs to serve the feed's images: the badge SVG for
 * /media/teams/{slug}.svg and /media/leagues/{slug}.svg, or undefined for a
 * slug the feed never issued (→ 404).
 */
import { leagueBadgeSvg, teamBadgeSvg } from "./badge.ts";
import { DEFAULT_LEAGUES, slugify, type LeagueDef } from "./leagues.ts";

export function teamBadgeForSlug(slug: string, leagues: readonly LeagueDef[] = DEFAULT_LEAGUES): string | undefined {
  for (const league of leagues) {
    for (const name of league.teams) if (slugify(name) === slug) return teamBadgeSvg({ slug, name });
  }
  return undefined;
}

export function leagueBadgeForSlug(slug: string, leagues: readonly LeagueDef[] = DEFAULT_LEAGUES): string | undefined {
  const league = leagues.find((l) => l.slug === slug);
  return league && leagueBadgeSvg(league);
}
