/**
 * One page of a REST list shown as cards (Messages, the E-mail outbox), not in DataViews: the page read for `path`
 * (with WooCommerce's totals), kept on screen while the next one loads (`list.path` says which it is), the read's
 * error, and `replace` for a row an action answered with. `reloads`: a number that, when it changes, reads again;
 * `reload()` reads the page again and resolves once it is shown (an optimistic action's reconciling read).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { getWithHeaders, type RestError } from "./api.ts";

export interface CardPage<T> {
  path: string;
  items: T[];
  total: number;
  pages: number;
}

export function useCardPage<T extends { id: number }>(path: string, reloads = 0) {
  const [list, setList] = useState<CardPage<T> | null>(null);
  const [error, setError] = useState<RestError | null>(null);
  const current = useRef(path);
  useEffect(() => {
    current.current = path;
  }, [path]);
  useEffect(() => {
    let live = true;
    getWithHeaders<T[]>(path).then(
      ({ body, headers }) => {
        if (!live) return;
        setError(null);
        setList({ path, items: body, total: Number(headers.get("X-WP-Total") ?? body.length), pages: Number(headers.get("X-WP-TotalPages") ?? 1) });
      },
      (e: RestError) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [path, reloads]);
  /** Shows `item` (an action's answer) in place of the row with its id. */
  const replace = useCallback((item: T) => setList((l) => (l ? { ...l, items: l.items.map((x) => (x.id === item.id ? item : x)) } : l)), []);
  const reload = useCallback(async () => {
    const asked = current.current;
    try {
      const { body, headers } = await getWithHeaders<T[]>(asked);
      if (current.current !== asked) return;
      setError(null);
      setList({ path: asked, items: body, total: Number(headers.get("X-WP-Total") ?? body.length), pages: Number(headers.get("X-WP-TotalPages") ?? 1) });
    } catch (e) {
      if (current.current === asked) setError(e as RestError);
    }
  }, []);
  return { list, error, replace, reload };
}
