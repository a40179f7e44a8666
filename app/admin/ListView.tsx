/** A REST list in WordPress's DataViews: the error above it, the page's rows and totals, a link per row (Products, Orders). */
import { Notice } from "@wordpress/components";
import { DataViews, type Action, type Field, type View } from "@wordpress/dataviews";
import type { RestError } from "./api.ts";
import type { PagedList } from "./use-paged-list.ts";

/** Row ids for DataViews: our REST ids are numbers (DataViews needs `getItemId` unless an item has a string `id`). */
const itemIds = <T extends { id: number }>() =>
  ({ getItemId: (item: T) => String(item.id) }) as T extends { id: string } ? { getItemId?: (item: T) => string } : { getItemId: (item: T) => string };

export function ListView<T extends { id: number }>(props: {
  list: PagedList<T>;
  /** An error of the screen's other reads (counts, categories), shown when the list itself has none. */
  otherError: RestError | null;
  fields: Field<T>[];
  view: View;
  onChangeView: (view: View) => void;
  actions: Action<T>[];
  searchLabel: string;
  itemUrl: (item: T) => string;
  /** The selected rows' ids (as strings), for bulk actions (Products); DataViews keeps its own when absent. */
  selection?: string[];
  onChangeSelection?: (ids: string[]) => void;
}) {
  const error = props.list.error ?? props.otherError;
  return (
    <div className="admin-products">
      {error ? (
        <Notice status="error" isDismissible={false}>
          {error.message}
        </Notice>
      ) : null}
      <DataViews<T>
        data={props.list.items}
        fields={props.fields}
        view={props.view}
        onChangeView={props.onChangeView}
        actions={props.actions}
        {...itemIds<T>()}
        isLoading={props.list.loading}
        {...(props.selection && props.onChangeSelection ? { selection: props.selection, onChangeSelection: props.onChangeSelection } : {})}
        paginationInfo={props.list.totals}
        defaultLayouts={{ table: {}, list: {} }}
        search
        searchLabel={props.searchLabel}
        renderItemLink={({ item, children, ...rest }) => (
          <a {...rest} href={props.itemUrl(item)}>
            {children}
          </a>
        )}
      />
    </div>
  );
}
