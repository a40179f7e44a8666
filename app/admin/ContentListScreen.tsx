/**
 * Pages and Posts (docs/contract/admin.md 'Pages and posts'): WordPress's lists on DataViews, from
 * `GET wp/v2/pages|posts?context=edit&status=any` (drafts too; the trash is left out), searched by title, sorted by
 * title or date, pages of 20, filtered by status. Columns: title (a link to the editor), status, address (a link to
 * the storefront while published), last modified. "Add page" / "Add post" above the list. Row actions, on one row or
 * several: move to the trash (`DELETE`, as WordPress: it can be restored), and in the Trash tab restore (to a
 * draft) or delete permanently after a confirmation (`DELETE ?force=true`); the rows change at once and reconcile
 * with the server (optimistic-rows.tsx).
 */
import { useMemo } from "react";
import type { Action, Field, View } from "@wordpress/dataviews";
import { TabPanel } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "@wordpress/dataviews/build-style/style.css";
import { usePagedList } from "./use-paged-list.ts";
import { useViewInAddress } from "./view-in-address.ts";
import { ListView } from "./ListView.tsx";
import { query, send } from "./api.ts";
import { ResultNotice } from "./Status.tsx";
import { confirmedAction, removeRows, useOptimisticRows, withRows } from "./optimistic-rows.tsx";
import { CONTENT_STATUS_LABELS, editUrl, restBase, type RestContent } from "./content-types.ts";
import { backup, trash as trashIcon } from "@wordpress/icons";

const ORDERBY: Record<string, string> = { title: "title", modified: "modified", date: "date" };
const DEFAULT_VIEW: View = {
  type: "table",
  search: "",
  page: 1,
  perPage: 20,
  sort: { field: "modified", direction: "desc" },
  titleField: "title",
  fields: ["status", "link", "modified"],
  filters: [],
  layout: {},
};
const titleOf = (c: RestContent) => c.title.raw || c.title.rendered || "(no title)";

export default function ContentListScreen({ kind }: { kind: "post" | "page" }) {
  const { view, setView, extra, setExtra, restored } = useViewInAddress(
    window.matchMedia("(max-width: 782px)").matches ? { ...DEFAULT_VIEW, type: "list", fields: ["status"] } : DEFAULT_VIEW,
    { filters: { status: "is" }, extra: ["post_status"] },
  );
  const tab = extra.post_status === "trash" ? "trash" : "all";
  const status = view.filters?.find((f) => f.field === "status")?.value as string | undefined;
  const q = query({
    context: "edit",
    status: tab === "trash" ? "trash" : status || "any",
    page: view.page ?? 1,
    per_page: view.perPage ?? 20,
    search: view.search,
    orderby: view.sort ? ORDERBY[view.sort.field] : undefined,
    order: view.sort?.direction,
  });
  const list = usePagedList<RestContent>(`/wp/v2/${restBase(kind)}?${q}`);
  const fields = useMemo<Field<RestContent>[]>(
    () => [
      { id: "title", label: "Title", enableHiding: false, filterBy: false, getValue: ({ item }) => titleOf(item) },
      {
        id: "status",
        label: "Status",
        enableSorting: false,
        elements: (["publish", "draft", "future", "pending", "private"] as const).map((s) => ({ value: s, label: CONTENT_STATUS_LABELS[s] })),
        filterBy: { operators: ["is"] },
        getValue: ({ item }) => CONTENT_STATUS_LABELS[item.status] ?? item.status,
      },
      {
        id: "link",
        label: "Address",
        enableSorting: false,
        filterBy: false,
        render: ({ item }) =>
          item.status === "publish" ? (
            <a href={item.link}>
              {new URL(item.link, window.location.origin).pathname}
              <span className="screen-reader-text"> (view {titleOf(item)})</span>
            </a>
          ) : (
            <>–</>
          ),
      },
      { id: "modified", label: "Last modified", filterBy: false, getValue: ({ item }) => `${item.modified_gmt.slice(0, 10)}` },
    ],
    [],
  );
  const thing = kind === "page" ? "page" : "post";
  const { rows, result, run } = useOptimisticRows(list.items, list.refresh);
  const actions = useMemo<Action<RestContent>[]>(() => {
    const words = { one: thing, many: `${thing}s` };
    const base = `/wp/v2/${restBase(kind)}`;
    /** Every row written leaves this view: the trash is a view of its own. */
    const leaving = (items: RestContent[], write: (c: RestContent) => Promise<unknown>, done: string) =>
      removeRows(run, items, write, { ...words, done }, (c) => `“${titleOf(c)}”`);
    const inTrash = (c: RestContent) => c.status === "trash";
    return [
      {
        id: "edit",
        label: "Edit",
        isPrimary: true,
        isEligible: (c) => !inTrash(c),
        callback: ([item]) => item && window.location.assign(editUrl(kind, item.id)),
      },
      {
        id: "trash",
        label: "Move to trash",
        icon: trashIcon,
        supportsBulk: true,
        isEligible: (c) => !inTrash(c),
        callback: (items) => leaving(items, (c) => send(`${base}/${c.id}`, "DELETE", undefined), "moved to the trash"),
      },
      {
        id: "restore",
        label: "Restore",
        icon: backup,
        supportsBulk: true,
        isEligible: inTrash,
        callback: (items) => leaving(items, (c) => send(`${base}/${c.id}`, "POST", { status: "draft" }), "restored"),
      },
      confirmedAction<RestContent>({
        id: "delete",
        label: "Delete permanently",
        isEligible: inTrash,
        question: (items) => (items.length === 1 ? `Delete “${titleOf(items[0]!)}” permanently?` : `Delete ${items.length} ${thing}s permanently?`),
        warning: "Their comments are deleted with them. This cannot be undone.",
        confirmLabel: "Delete permanently",
        perform: (items) => leaving(items, (c) => send(`${base}/${c.id}?force=true`, "DELETE", undefined), "deleted permanently"),
      }),
    ];
  }, [run, kind, thing]);
  return (
    <>
      <ResultNotice result={result} />
      <p>
        <a className="components-button is-primary admin-add-link" href={`/wp-admin/${restBase(kind)}/new/`}>
          Add {thing}
        </a>
      </p>
      <TabPanel
        key={restored}
        initialTabName={tab}
        className="admin-status-tabs"
        tabs={[
          { name: "all", title: "All" },
          { name: "trash", title: "Trash" },
        ]}
        onSelect={(name) => {
          if (name !== tab) setExtra({ post_status: name === "trash" ? "trash" : "" }, (v) => ({ ...v, page: 1 }));
        }}
      >
        {() => (
          <ListView<RestContent>
            list={withRows(list, rows)}
            otherError={null}
            fields={fields}
            view={view}
            onChangeView={setView}
            actions={actions}
            searchLabel={`Search ${thing}s`}
            itemUrl={(item) => editUrl(kind, item.id)}
          />
        )}
      </TabPanel>
    </>
  );
}
