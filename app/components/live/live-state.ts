/**
 * The live-match widget's state and what the view reads from it, without the controller's runtime (zod, the
 * connection): the widget's view stays in the page's chunk while the rest loads when the widget comes into view.
 */
import type { Indicators } from "../../../core/domain/live/indicator.ts";
import type { LiveMatch, MatchMap } from "../../../core/domain/live/schema.ts";

export interface LiveMatchState {
  readonly loading: boolean;
  readonly matches: MatchMap;
  readonly selected: string | null;
  readonly indicators: Indicators;
}

export const INITIAL_LIVE_STATE: LiveMatchState = { loading: true, matches: new Map(), selected: null, indicators: {} };

export function selectedMatch(state: LiveMatchState): LiveMatch | undefined {
  return state.selected === null ? undefined : state.matches.get(state.selected);
}
