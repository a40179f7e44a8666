/**
 * Staff (docs/contract/admin.md 'Staff'): the administrators and shop managers on `@wordpress/dataviews`, from
 * `GET wp/v2/users?context=edit&roles=administrator,shop_manager` (search, sorting by name, e-mail or registration,
 * pages of 20): name (a link to the editor), e-mail, role, registered. "Add staff user" opens an empty editor.
 */
import { useMemo } from "react";
import type { Field, View } from "@wordpress/dataviews";
import "@wordpress/components/build-style/style.css";
import "@wordpress/dataviews/build-style/style.css";
import { usePagedList } from "./use-paged-list.ts";
import { useViewInAddress } from "./view-in-address.ts";
import { ListView } from "./ListView.tsx";
import { query } from "./api.ts";
import { ResultNotice } from "./Status.tsx";
import { roleLabel, type RestStaffUser } from "./staff-types.ts";

const DEFAULT_VIEW: View = {
  type: "table",
  search: "",
  page: 1,
  perPage: 20,
  sort: { field: "name", direction: "asc" },
  titleField: "name",
  fields: ["email", "role", "registered_date"],
  layout: {},
};
const userUrl = (u: RestStaffUser) => `/wp-admin/users/${u.id}/`;

export default function StaffScreen() {
  const { view, setView } = useViewInAddress(
    window.matchMedia("(max-width: 782px)").matches ? { ...DEFAULT_VIEW, type: "list", fields: ["email", "role"] } : DEFAULT_VIEW,
  );
  const q = query({
    context: "edit",
    roles: "administrator,shop_manager",
    page: view.page ?? 1,
    per_page: view.perPage ?? 20,
    search: view.search,
    orderby: view.sort?.field,
    order: view.sort?.direction,
  });
  const list = usePagedList<RestStaffUser>(`/wp/v2/users?${q}`);
  const fields = useMemo<Field<RestStaffUser>[]>(
    () => [
      { id: "name", label: "Name", enableHiding: false, filterBy: false, getValue: ({ item }) => item.name || item.username },
      { id: "email", label: "E-mail", filterBy: false, getValue: ({ item }) => item.email },
      { id: "role", label: "Role", enableSorting: false, filterBy: false, getValue: ({ item }) => roleLabel(item.roles[0]) },
      { id: "registered_date", label: "Registered", filterBy: false, getValue: ({ item }) => item.registered_date.slice(0, 10) },
    ],
    [],
  );
  const params = new URLSearchParams(window.location.search);
  const deleted = params.get("deleted");
  return (
    <>
      <ResultNotice result={deleted ? { status: "success", text: `Staff user “${deleted}” removed.` } : null} />
      <p>
        <a className="components-button is-primary admin-add-link" href="/wp-admin/users/new/">
          Add staff user
        </a>
      </p>
      <ListView<RestStaffUser>
        list={list}
        otherError={null}
        fields={fields}
        view={view}
        onChangeView={setView}
        actions={[]}
        searchLabel="Search staff"
        itemUrl={userUrl}
      />
      <p className="admin-hint">
        Administrators run everything, staff included; shop managers run the shop (products, orders, customers, coupons) but not staff or settings. Customers
        are under <a href="/wp-admin/customers/">Customers</a>.
      </p>
    </>
  );
}
