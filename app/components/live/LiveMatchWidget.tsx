/**
 * The single live-match widget (docs/contract/storefront.md §2 'Live-match widget'). Server render and
 * first client render show the loader; the connection starts in an effect.
 */
import { useEffect, useRef, useState, type Ref } from "react";
import { MISSING_TEXT, TEAM_ICON_SIZE } from "../../../core/domain/live/constants.ts";
import { leadingTeam, statusLine, type Side } from "../../../core/domain/live/display.ts";
import { liveLang, liveTexts } from "../../../core/domain/live/i18n.ts";
import type { LiveMatch } from "../../../core/domain/live/schema.ts";
import { shopAsset } from "./shop-origin.ts";
import type { ControllerDeps } from "./live-match-controller.ts";
import { INITIAL_LIVE_STATE, selectedMatch, type LiveMatchState } from "./live-state.ts";
import { onVisible } from "../../lib/on-visible.ts";

export interface LiveMatchWidgetProps {
  /** nl, ro, ka, hy, az, el, pl, uz; anything else is en. */
  readonly lang?: string;
  /** Also log every publication. */
  readonly debug?: boolean;
  /** Overrides for tests or a custom connection. */
  readonly deps?: Partial<ControllerDeps>;
}

function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function LiveMatchWidget({ lang, debug = false, deps }: LiveMatchWidgetProps) {
  const language = liveLang(lang);
  const [state, setState] = useState<LiveMatchState>(INITIAL_LIVE_STATE);

  useEffect(() => {
    // docs/contract/storefront.md §2: a page with a live-match widget says so in a global flag (the embed sets it too, before React).
    window.liveMatchWidgetPresent = true;
  }, []);

  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The connection, the controller and zod load when the widget comes into view (issue 18).
    let cancelled = false;
    let stop: (() => void) | undefined;
    const start = async () => {
      const runtime = await import("./live-runtime.ts");
      if (cancelled) return;
      const log = deps?.log ?? ((message: string, detail?: unknown) => console.log(`[live-match] ${message}`, detail ?? ""));
      const baseSubscribe = deps?.subscribe ?? runtime.clientSubscribe();
      const controller = runtime.createLiveMatchController({
        rpc: deps?.rpc ?? runtime.clientRpc(),
        subscribe: debug ? (ch, on) => baseSubscribe(ch, (d) => (log("publication", d), on(d))) : baseSubscribe,
        storage: deps?.storage !== undefined ? deps.storage : browserStorage(),
        lang: language,
        log,
        now: deps?.now ?? Date.now,
        timers: deps?.timers ?? { setTimeout: (fn, ms) => window.setTimeout(fn, ms), clearTimeout: (h) => window.clearTimeout(h as number) },
        channel: deps?.channel,
      });
      const unlisten = controller.subscribe(() => setState(controller.getState()));
      controller.start();
      stop = () => {
        unlisten();
        controller.stop();
      };
    };
    const cancelVisible = onVisible(root.current, () => void start());
    return () => {
      cancelled = true;
      cancelVisible();
      stop?.();
    };
    // deps is an escape hatch for tests, read once per mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language, debug]);

  return <LiveMatchView state={state} lang={language} rootRef={root} />;
}

function TeamCell({ match, side, winning }: { match: LiveMatch; side: Side; winning: boolean }) {
  const team = match[side];
  return (
    <div className={`live-team live-team--${side}${winning ? " live-team--winning" : ""}`}>
      {team.img ? <img className="live-team__icon" src={shopAsset(team.img)} alt={team.name} width={TEAM_ICON_SIZE} height={TEAM_ICON_SIZE} /> : null}
      <span className="live-team__name">{team.name}</span>
    </div>
  );
}

function Indicator({ direction }: { direction: "up" | "down" | undefined }) {
  if (!direction) return null;
  return (
    <span className={`live-indicator live-indicator--${direction}`} aria-label={direction}>
      {direction === "up" ? "▲" : "▼"}
    </span>
  );
}

function Placeholder({ text }: { text: string }) {
  return (
    <div className="live-placeholder" role="note">
      <span className="live-placeholder__icon" aria-hidden="true">
        ⚽
      </span>
      <span className="live-placeholder__text">{text}</span>
    </div>
  );
}

/** Pure rendering of a state; used for server rendering and tests too. */
export function LiveMatchView({ state, lang, rootRef }: { state: LiveMatchState; lang: string; rootRef?: Ref<HTMLDivElement> }) {
  const texts = liveTexts(lang);
  if (state.loading) {
    return (
      <div ref={rootRef} className="live-widget live-widget--loading" aria-busy="true">
        <div className="live-loader" role="status" aria-label={texts.loading} />
      </div>
    );
  }
  if (state.matches.size === 0) {
    return (
      <div ref={rootRef} className="live-widget">
        <p className="live-empty">{texts.empty}</p>
      </div>
    );
  }
  const match = selectedMatch(state);
  if (!match) {
    return (
      <div ref={rootRef} className="live-widget">
        <Placeholder text={texts.messages[0]} />
      </div>
    );
  }
  const line = statusLine(match, lang);
  const leader = match.stage === "plan" ? null : leadingTeam(match.home.score, match.away.score);
  const ind = state.indicators[match.slug];
  return (
    <div ref={rootRef} className="live-widget" data-slug={match.slug}>
      {match.live ? null : <Placeholder text={`${texts.messages[1]} ${match.date} ${match.time} ${match.home.name} - ${match.away.name}.`} />}
      <div className="live-match-card">
        <div className="live-match-card__title">
          {`${match.date} ${match.time} | ${match.league.country || MISSING_TEXT} | ${match.league.name || MISSING_TEXT}`}
        </div>
        <div className="live-match-card__body">
          <TeamCell match={match} side="home" winning={leader === "home"} />
          <div className="live-score">
            <div className="live-score__counts">
              <span className={`live-score__count${leader === "home" ? " live-score__count--winning" : ""}`}>
                {line.home}
                <Indicator direction={ind?.home?.direction} />
              </span>
              <span className="live-score__divider">:</span>
              <span className={`live-score__count${leader === "away" ? " live-score__count--winning" : ""}`}>
                {line.away}
                <Indicator direction={ind?.away?.direction} />
              </span>
            </div>
            <div className={`live-score__status${match.live ? " live" : ""}`}>{line.status}</div>
          </div>
          <TeamCell match={match} side="away" winning={leader === "away"} />
        </div>
      </div>
    </div>
  );
}
