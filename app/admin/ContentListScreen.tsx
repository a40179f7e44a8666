/**
 * Pages and Posts (docs/contract/admin.md 'Pages and posts'): WordPress's lists on DataViews, from
 * `GET wp/v2/pages|posts?context=edit&status=any` (drafts too; the trash is left out), searched by title, sorted by
 * title or date, pages of 20, filtered by status. Columns: title (a link to the editor), status, address (a link to
 * the storefront while published), last modified. "Add page" / "Add post" above the list.
 */
import { useMemo, useState } from "react";
import type { Field, View } from "@wordpress/dataviews";
import "@wordpress/components/build-style/style.css";
import "@wordpress/dataviews/build-style/style.css";
import { usePagedList } from "./use-paged-list.ts";
import { ListView } from "./ListView.tsx";
import { query } from "./api.ts";
import { CONTENT_STATUS_LABELS, editUrl, restBase, type RestContent } from "./content-types.ts";

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
  const [view, setView] = useState<View>(() =>
    window.matchMedia("(max-width: 782px)").matches ? { ...DEFAULT_VIEW, type: "list", fields: ["status"] } : DEFAULT_VIEW,
  );
  const status = view.filters?.find((f) => f.field === "status")?.value as string | undefined;
  const q = query({
    context: "edit",
    status: status || "any",
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
  return (
    <>
      <p>
        <a className="components-button is-primary admin-add-link" href={`/wp-admin/${restBase(kind)}/new/`}>
          Add {thing}
        </a>
      </p>
      <ListView<RestContent>
        list={list}
        otherError={null}
        fields={fields}
        view={view}
        onChangeView={setView}
        actions={[]}
        searchLabel={`Search ${thing}s`}
        itemUrl={(item) => editUrl(kind, item.id)}
      />
    </>
  );
}
