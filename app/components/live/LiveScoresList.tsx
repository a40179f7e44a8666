/**
 * The live-scores list widget (docs/contract/storefront.md §2 'Sports live-scores list widget'): matches
 * grouped by league, asked for live → today → tomorrow, refreshed every 10
 * minutes. Server render shows the loading state; data loads in an effect.
 */
import { useEffect, useRef, useState, type Ref } from "react";
import { LIST_REFRESH_MS, type Period } from "../../../core/domain/live/constants.ts";
import { formatDate, formatTime, leadingTeam, listStatus, scoreText } from "../../../core/domain/live/display.ts";
import { listLang, listTexts } from "../../../core/domain/live/i18n.ts";
import { isNotStarted } from "../../../core/domain/live/stages.ts";
import type { SportsMatch } from "../../../core/domain/live/schema.ts";
import type { Rpc } from "./connection.ts";
import type { Log } from "./loading.ts";
import { onVisible } from "../../lib/on-visible.ts";

export interface ListState {
  readonly loading: boolean;
  readonly period: Period | null;
  readonly matches: readonly SportsMatch[];
}

export const INITIAL_LIST_STATE: ListState = { loading: true, period: null, matches: [] };

export interface LiveScoresListProps {
  /** One of the 21 list languages; anything else is en. */
  readonly lang?: string;
  readonly rpc?: Rpc;
  readonly log?: Log;
  readonly refreshMs?: number;
}

/** Minutes east of UTC in the viewer's timezone at that moment (DST-aware). */
function localOffset(unixSeconds: number): number {
  return -new Date(unixSeconds * 1000).getTimezoneOffset();
}

export function LiveScoresList({ lang, rpc, log, refreshMs = LIST_REFRESH_MS }: LiveScoresListProps) {
  const language = listLang(lang);
  const [state, setState] = useState<ListState>(INITIAL_LIST_STATE);

  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The connection and zod load when the widget comes into view (issue 18).
    let alive = true;
    let timer: number | undefined;
    const logger = log ?? ((m: string, d?: unknown) => console.log(`[live-scores] ${m}`, d ?? ""));
    const cancelVisible = onVisible(root.current, () => {
      void import("./live-runtime.ts").then((runtime) => {
        if (!alive) return;
        const call = rpc ?? runtime.clientRpc();
        const load = async (): Promise<void> => {
          const r = await runtime.loadListMatches(call, language, logger);
          if (alive) setState({ loading: false, period: r.period, matches: r.matches });
        };
        void load();
        timer = window.setInterval(() => void load(), refreshMs);
      });
    });
    return () => {
      alive = false;
      cancelVisible();
      window.clearInterval(timer);
    };
  }, [language, rpc, log, refreshMs]);

  return <LiveScoresView state={state} lang={language} offset={localOffset} rootRef={root} />;
}

function groupByLeague(matches: readonly SportsMatch[]): { league: SportsMatch["league"]; matches: SportsMatch[] }[] {
  const groups = new Map<string, { league: SportsMatch["league"]; matches: SportsMatch[] }>();
  for (const m of matches) {
    const key = `${m.league.country}|${m.league.slug}`;
    const g = groups.get(key) ?? { league: m.league, matches: [] };
    g.matches.push(m);
    groups.set(key, g);
  }
  return [...groups.values()];
}

function MatchRow({ match, lang, offset }: { match: SportsMatch; lang: string; offset: (s: number) => number }) {
  const texts = listTexts(lang);
  const [open, setOpen] = useState(match.details.show);
  const notStarted = isNotStarted(match.stage);
  const leader = notStarted ? null : leadingTeam(match.home.score, match.away.score);
  const tz = offset(match.date);
  const team = (side: "home" | "away") => {
    const t = match[side];
    return (
      <div className={`live-row__team live-row__team--${side}${leader === side ? " live-row__team--winning" : ""}`}>
        {t.img ? <img className="live-row__img" src={t.img} alt={t.name} width={20} height={20} loading="lazy" /> : null}
        <span className="live-row__name">{t.name}</span>
        <abbr className="live-row__abbr" title={t.name}>
          {t.abbr}
        </abbr>
      </div>
    );
  };
  return (
    <li className={`live-row${match.live ? " live-row--live" : ""}`} data-slug={match.slug} data-stage={match.stage}>
      <div className="live-row__when">
        <span className="live-row__date">{formatDate(match.date, tz)}</span> <span className="live-row__time">{formatTime(match.date, tz)}</span>
      </div>
      {team("home")}
      <div className="live-row__score">{notStarted ? "- : -" : `${scoreText(match.home.score)} : ${scoreText(match.away.score)}`}</div>
      {team("away")}
      <div className={`live-row__status${match.live ? " live" : ""}`}>{listStatus(match, lang)}</div>
      <button type="button" className="live-row__toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "−" : "+"}
      </button>
      {open ? (
        <div className="live-row__details">
          {match.details.loading ? (
            texts.loading
          ) : match.details.events.length === 0 ? (
            texts.detailsLater
          ) : (
            <ul>
              {match.details.events.map((e, i) => (
                <li key={i}>{typeof e === "string" ? e : JSON.stringify(e)}</li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </li>
  );
}

/** Pure rendering of a state (server render, tests). `offset` gives minutes east of UTC for a date; default UTC. */
export function LiveScoresView({
  state,
  lang,
  offset = () => 0,
  rootRef,
}: {
  state: ListState;
  lang: string;
  offset?: (unixSeconds: number) => number;
  rootRef?: Ref<HTMLDivElement>;
}) {
  const texts = listTexts(lang);
  if (state.loading) {
    return (
      <div ref={rootRef} className="live-scores live-scores--loading" aria-busy="true">
        <div className="live-loader" role="status">
          {texts.loading}
        </div>
      </div>
    );
  }
  if (state.matches.length === 0) {
    return (
      <div ref={rootRef} className="live-scores">
        <p className="live-empty">{texts.empty}</p>
      </div>
    );
  }
  return (
    <div ref={rootRef} className="live-scores" data-period={state.period ?? undefined}>
      {groupByLeague(state.matches).map(({ league, matches }) => (
        <section className="live-league" key={`${league.country}|${league.slug}`}>
          <h3 className="live-league__title">
            {league.img ? <img className="live-league__img" src={league.img} alt="" width={20} height={20} /> : null}
            <span className="live-league__country">{league.country}</span>
            <span className="live-league__name">{league.name}</span>
          </h3>
          <ul className="live-league__matches">
            {matches.map((m) => (
              <MatchRow key={m.slug} match={m} lang={lang} offset={offset} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
