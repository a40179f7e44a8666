/** One page of a REST list for a DataViews screen: its rows, WooCommerce's paging totals, the error, and whether it is loading. */
import { useCallback, useEffect, useRef, useState } from "react";
import { getWithHeaders, type RestError } from "./api.ts";

export interface PagedList<T> {
  items: T[];
  totals: { totalItems: number; totalPages: number };
  error: RestError | null;
  /** True until the answer for this very path has arrived (a later path's answer replaces an earlier one's). */
  loading: boolean;
}

type Shown<T> = Omit<PagedList<T>, "loading"> & { shown: string | null };

async function readPage<T>(path: string): Promise<Omit<Shown<T>, "shown">> {
  try {
    const { body, headers } = await getWithHeaders<T[]>(path);
    return {
      items: body,
      totals: { totalItems: Number(headers.get("X-WP-Total") ?? body.length), totalPages: Number(headers.get("X-WP-TotalPages") ?? 1) },
      error: null,
    };
  } catch (error) {
    return { items: [], totals: { totalItems: 0, totalPages: 0 }, error: error as RestError };
  }
}

/**
 * `reloads`: a number that, when it changes, reads the same path again (after a write, to reconcile with the server).
 * `refresh()` reads the current path again and resolves once its rows are shown (an optimistic write awaits it).
 */
export function usePagedList<T>(path: string, reloads = 0): PagedList<T> & { refresh: () => Promise<void> } {
  const [state, setState] = useState<Shown<T>>({ items: [], totals: { totalItems: 0, totalPages: 0 }, error: null, shown: null });
  const key = `${path}#${reloads}`;
  const current = useRef(key);
  useEffect(() => {
    current.current = key;
    let live = true;
    void readPage<T>(path).then((page) => live && setState({ ...page, shown: key }));
    return () => {
      live = false;
    };
  }, [path, key]);
  const refresh = useCallback(async () => {
    const asked = current.current;
    const page = await readPage<T>(path);
    // A later path (the owner paged or searched meanwhile) has its own read: this answer is not its rows.
    if (current.current === asked) setState({ ...page, shown: asked });
  }, [path]);
  return { items: state.items, totals: state.totals, error: state.error, loading: state.shown !== key, refresh };
}
