import { EXTRA_KEPT_STAGES, LIVE_STAGES, MINUTE_STAGES, NOT_STARTED_STAGE, STAGES, type Stage } from "./constants.ts";

const KNOWN = new Set<string>(STAGES);
const LIVE = new Set<string>(LIVE_STAGES);
const MINUTE = new Set<string>(MINUTE_STAGES);
const KEPT = new Set<string>([...LIVE_STAGES, ...EXTRA_KEPT_STAGES]);

/** Stages arrive as free strings: an unknown one is logged by the caller but kept (docs/contract/storefront.md §4). */
export function isKnownStage(stage: string): stage is Stage {
  return KNOWN.has(stage);
}

/** `live` is always derived from the stage, never trusted from the wire (docs/contract/storefront.md §3). */
export function isLiveStage(stage: string): boolean {
  return LIVE.has(stage);
}

export function isNotStarted(stage: string): boolean {
  return stage === NOT_STARTED_STAGE;
}

export function showsMinute(stage: string): boolean {
  return MINUTE.has(stage);
}

/** A stored selection survives only in these stages (docs/contract/storefront.md §4 'Choosing the selected match'). */
export function isKeptStage(stage: string): boolean {
  return KEPT.has(stage);
}

/** Index into the list widget's 18 labels (docs/contract/storefront.md §4 'Display labels', spec order), or undefined (plan, unknown). */
export const LIST_LABEL_INDEX: Readonly<Partial<Record<Stage, number>>> = {
  finished: 0,
  halftime: 1,
  postponed: 2,
  cancelled: 3,
  results_only: 4,
  live: 5,
  finished_overtime: 6,
  finished_penalty: 7,
  finished_technical_defeat: 8,
  extra_time_halftime: 9,
  penalties: 10,
  pause: 11,
  break_time: 12,
  "1st_quarter": 13,
  "2nd_quarter": 14,
  "3rd_quarter": 15,
  "4th_quarter": 16,
  overtime: 17,
};
