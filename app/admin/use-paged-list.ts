/** One page of a REST list for a DataViews screen: its rows, WooCommerce's paging totals, the error, and whether it is loading. */
import { useEffect, useState } from "react";
import { getWithHeaders, type RestError } from "./api.ts";

export interface PagedList<T> {
  items: T[];
  totals: { totalItems: number; totalPages: number };
  error: RestError | null;
  /** True until the answer for this very path has arrived (a later path's answer replaces an earlier one's). */
  loading: boolean;
}

/** `reloads`: a number that, when it changes, reads the same path again (after a write, to reconcile with the server). */
export function usePagedList<T>(path: string, reloads = 0): PagedList<T> {
  const [state, setState] = useState<Omit<PagedList<T>, "loading"> & { shown: string | null }>({
    items: [],
    totals: { totalItems: 0, totalPages: 0 },
    error: null,
    shown: null,
  });
  const key = `${path}#${reloads}`;
  useEffect(() => {
    let live = true;
    getWithHeaders<T[]>(path).then(
      ({ body, headers }) =>
        live &&
        setState({
          items: body,
          totals: { totalItems: Number(headers.get("X-WP-Total") ?? body.length), totalPages: Number(headers.get("X-WP-TotalPages") ?? 1) },
          error: null,
          shown: key,
        }),
      (error: RestError) => live && setState({ items: [], totals: { totalItems: 0, totalPages: 0 }, error, shown: key }),
    );
    return () => {
      live = false;
    };
  }, [path, key]);
  return { items: state.items, totals: state.totals, error: state.error, loading: state.shown !== key };
}
