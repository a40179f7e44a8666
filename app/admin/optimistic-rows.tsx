/**
 * Optimistic list actions (issue 14: "optimistic lists that reconcile with the server"; docs/contract/admin.md
 * 'Row actions'). A row action changes the shown rows at once (a deleted row leaves, a switched rule shows its new
 * status), sends its writes, then reads the page again; React's `useOptimistic` drops the change when that action
 * ends, so the rows shown are the server's again: a refused write's row comes back, with the reason in the result
 * notice. Destructive actions ask first, in WordPress's confirmation dialog.
 */
import { useCallback, useOptimistic, useState, useTransition } from "react";
import { Button, __experimentalHStack as HStack } from "@wordpress/components";
import type { Action } from "@wordpress/dataviews";
import type { RestError } from "./api.ts";
import type { ActionResult } from "./Status.tsx";
import type { PagedList } from "./use-paged-list.ts";
import { trash } from "@wordpress/icons";

/** What one action did to each row it was asked for. */
export interface RowOutcome<T> {
  done: T[];
  failed: { item: T; error: RestError }[];
}

/** Runs `write` for every row at once; each row's success or refusal (a refusal never stops the others). */
export async function forEachRow<T>(items: readonly T[], write: (item: T) => Promise<unknown>): Promise<RowOutcome<T>> {
  const settled = await Promise.allSettled(items.map((item) => write(item)));
  const outcome: RowOutcome<T> = { done: [], failed: [] };
  settled.forEach((s, i) => {
    if (s.status === "fulfilled") outcome.done.push(items[i]!);
    else outcome.failed.push({ item: items[i]!, error: s.reason as RestError });
  });
  return outcome;
}

/**
 * The result notice's words: "Coupon “SUMMER” deleted." for one row, "2 coupons deleted." for several, and each
 * refused row with its reason: "1 coupon could not be deleted: “SUMMER”: reason".
 */
export function outcomeText<T>(outcome: RowOutcome<T>, words: { one: string; many: string; done: string }, nameOf: (item: T) => string): ActionResult {
  const noun = (n: number) => `${n} ${n === 1 ? words.one : words.many}`;
  const parts: string[] = [];
  const [only] = outcome.done;
  if (only && outcome.done.length === 1 && !outcome.failed.length) {
    parts.push(`${words.one[0]!.toUpperCase()}${words.one.slice(1)} ${nameOf(only)} ${words.done}.`);
  } else if (outcome.done.length) parts.push(`${noun(outcome.done.length)} ${words.done}.`);
  if (outcome.failed.length) {
    const reasons = outcome.failed.map(({ item, error }) => `${nameOf(item)}: ${error.message}`).join("; ");
    parts.push(`${noun(outcome.failed.length)} could not be ${words.done}: ${reasons}`);
  }
  return { status: outcome.failed.length ? "error" : "success", text: parts.join(" ") };
}

/**
 * The rows to show, and `run(change, write)`: `change` is applied to the rows at once, `write` does the work and
 * answers the result notice's text, then `reconcile` reads the rows again. While an action runs, `busy` is true.
 */
/**
 * Rows that leave the list (deleted, trashed, restored out of the Trash tab): gone from the list at once, each
 * written by `write`, and the outcome announced (`run` is `useOptimisticRows`'s).
 */
export function removeRows<T extends { id: number }>(
  run: (change: (rows: T[]) => T[], write: () => Promise<ActionResult>) => void,
  items: T[],
  write: (item: T) => Promise<unknown>,
  words: { one: string; many: string; done: string },
  nameOf: (item: T) => string,
): void {
  const ids = new Set(items.map((item) => item.id));
  run(
    (shown) => shown.filter((row) => !ids.has(row.id)),
    async () => outcomeText(await forEachRow(items, write), words, nameOf),
  );
}

export function useOptimisticRows<T>(items: T[], reconcile: () => Promise<void>) {
  const [rows, applyChange] = useOptimistic(items, (shown: T[], change: (rows: T[]) => T[]) => change(shown));
  const [busy, startTransition] = useTransition();
  const [result, setResult] = useState<ActionResult>(null);
  const run = useCallback(
    (change: (rows: T[]) => T[], write: () => Promise<ActionResult>) =>
      startTransition(async () => {
        applyChange(change);
        setResult(await write());
        await reconcile();
      }),
    [applyChange, reconcile],
  );
  return { rows, busy, result, setResult, run };
}

/** The list with the rows to show, its total lowered by the rows that left the page while a deletion is pending. */
export function withRows<T>(list: PagedList<T>, rows: T[]): PagedList<T> {
  const gone = Math.max(0, list.items.length - rows.length);
  return { ...list, items: rows, totals: { ...list.totals, totalItems: list.totals.totalItems - gone } };
}

/**
 * A destructive action that asks first: "Delete 2 coupons?" with Cancel and the action's own button (the dialog
 * takes focus, Escape cancels: WordPress's Modal through DataViews).
 */
export function confirmedAction<T>(props: {
  id: string;
  label: string;
  /** The question, for the rows chosen (the dialog's title). */
  question: (items: T[]) => string;
  /** What it cannot undo, under the question. */
  warning: string;
  confirmLabel: string;
  isEligible?: (item: T) => boolean;
  perform: (items: T[]) => void;
  icon?: Action<T>["icon"];
}): Action<T> {
  return {
    id: props.id,
    label: props.label,
    // Every confirmed action here deletes; with an icon DataViews offers it in the bulk footer at 782 px and below too.
    icon: props.icon ?? trash,
    supportsBulk: true,
    ...(props.isEligible ? { isEligible: props.isEligible } : {}),
    modalHeader: (items) => props.question(items),
    modalSize: "small",
    RenderModal: ({ items, closeModal }) => (
      <div className="admin-confirm">
        <p>{props.warning}</p>
        <HStack justify="flex-end">
          <Button variant="tertiary" onClick={closeModal} __next40pxDefaultSize>
            Cancel
          </Button>
          <Button
            variant="primary"
            isDestructive
            __next40pxDefaultSize
            onClick={() => {
              closeModal?.();
              props.perform(items);
            }}
          >
            {props.confirmLabel}
          </Button>
        </HStack>
      </div>
    ),
  };
}
