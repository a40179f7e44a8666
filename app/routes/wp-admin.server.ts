/**
 * The server half of /wp-admin/ and everything under it except admin-ajax.php (docs/contract/rest/auth.md
 * '/wp-admin/', docs/contract/admin.md): a signed-out visitor or a customer is sent to wp-login.php (the sign-in
 * page, never data), staff get the admin's frame and the name of the screen to load; the screens themselves read
 * and write through the REST API in the browser (app/admin/, decision 0024). `post.php?post={id}&action=edit` sends
 * staff to the edit screen's address.
 */
import { data, redirect } from "react-router";
import type { Route } from "./+types/wp-admin";
import { signedInUser } from "../lib/staff.server.ts";
import { findCustomerProfile, findUser } from "../../core/db/repositories/customers.ts";
import { findPostEditTarget, findProductEditTarget, type EditTarget } from "../../core/db/repositories/edit-targets.ts";
import { editScreenPath, type EditKind } from "../../core/domain/users/sign-in.ts";
import { REST_NONCE_ACTION } from "../../core/security/nonce.ts";
import { roleCan } from "../../core/security/capabilities.ts";
import type { Queryable } from "../../core/db/client.ts";
import { ADMIN_MENU, SETTINGS_TABS, screenKey, type AdminScreen, type SettingsTab } from "../admin/screens.ts";
import type { Capability } from "../../core/security/capabilities.ts";

/** Why a menu entry's screens refuse a role without its capability (WordPress's wording for the screen). */
const NOT_ALLOWED: Partial<Record<Capability, string>> = {
  promote_users: "Sorry, you are not allowed to manage staff users. Only an administrator can add, change or remove staff and their application passwords.",
  manage_woocommerce: "Sorry, you are not allowed to manage the shop's settings.",
  manage_options: "Sorry, you are not allowed to manage privacy options. Only an administrator can change the consent settings.",
};

/**
 * What each Settings tab needs beyond the menu entry's `manage_woocommerce`: consent is the site's privacy setting,
 * which WordPress keeps for administrators (the REST route asks the same: docs/contract/rest/shop-v1.md 'Settings').
 */
const SETTINGS_TAB_NEEDS: Partial<Record<SettingsTab, Capability>> = { consent: "manage_options" };

/** The object `post.php` names: with `post_type`, only that kind; without, a product first, then a post. */
async function findTarget(db: Queryable, id: number, kind: EditKind | null): Promise<EditTarget | null> {
  if (kind === "post" || kind === "page") {
    const target = await findPostEditTarget(db, id);
    return target?.kind === kind ? target : null;
  }
  return (await findProductEditTarget(db, id)) ?? (kind === null ? findPostEditTarget(db, id) : null);
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { services, shop } = context;
  const url = new URL(request.url);
  const user = await signedInUser(context);
  const signInUrl = `/wp-login.php?redirect_to=${encodeURIComponent(`${context.origin}${url.pathname}${url.search}`)}&reauth=1`;
  // WordPress's auth_redirect(), for customers too: the sign-in page (which says a staff account is needed), never data.
  if (!user?.staff) throw redirect(signInUrl, 302);
  const siteName = services.config.siteName;
  const profile = await findCustomerProfile(services.db, user.id);
  // The menu entries and screens this role may open (an entry's `needs`, e.g. Staff: administrators only).
  const allowed = (item: (typeof ADMIN_MENU)[number]) => !("needs" in item) || roleCan(user.role, item.needs);
  const common = {
    menu: ADMIN_MENU.filter(allowed).map(({ label, href, screens }) => ({ label, href, screens: [...screens] as string[] })),
    siteName,
    user: { name: profile?.displayName || profile?.email || `user ${user.id}`, email: profile?.email ?? "", role: user.role },
    logoutUrl: `/wp-login.php?action=logout&_wpnonce=${encodeURIComponent(shop.nonce("log-out"))}`,
    restNonce: shop.nonce(REST_NONCE_ACTION),
    currency: services.config.currency.code,
    assetVersion: context.adminAssetVersion,
  };
  const admin = (screen: AdminScreen, status = 200) => {
    const item = ADMIN_MENU.find((i) => (i.screens as readonly string[]).includes(screenKey(screen)));
    const tabNeeds = screen.name === "settings" ? SETTINGS_TAB_NEEDS[screen.tab] : undefined;
    const denied = item && "needs" in item && !allowed(item) ? item.needs : tabNeeds && !roleCan(user.role, tabNeeds) ? tabNeeds : null;
    if (denied) {
      // WordPress's users.php for a role without the capability: the frame says so, and no screen or data loads.
      const message = NOT_ALLOWED[denied] ?? "Sorry, you are not allowed to access this page.";
      return data({ view: "admin" as const, ...common, screen: { name: "not-allowed", message } satisfies AdminScreen }, { status: 403 });
    }
    return data({ view: "admin" as const, ...common, screen }, { status });
  };
  const path = (params["*"] ?? "").replace(/\/+$/, "");
  if (path === "") return admin({ name: "dashboard" });
  if (path === "products") return admin({ name: "products" });
  if (path === "products/new") return admin({ name: "product-new" });
  // Global attributes and their terms' swatches (app/admin/AttributesScreen.tsx): an unknown attribute is the API's 404.
  if (path === "products/attributes") return admin({ name: "attributes" });
  const attribute = /^products\/attributes\/(\d{1,9})$/.exec(path);
  if (attribute) return admin({ name: "attribute", id: Number(attribute[1]) });
  // Moving in (app/admin/ImportExport.tsx, decision 0039).
  if (path === "products/import") return admin({ name: "product-import" });
  if (path === "products/export") return admin({ name: "product-export" });
  if (path === "orders") return admin({ name: "orders" });
  const order = /^orders\/(\d{1,9})$/.exec(path);
  if (order) return admin({ name: "order", id: Number(order[1]) });
  const slip = /^orders\/(\d{1,9})\/packing-slip$/.exec(path);
  if (slip) return admin({ name: "packing-slip", id: Number(slip[1]) });
  if (path === "customers") return admin({ name: "customers", canCreate: roleCan(user.role, "create_users"), canDelete: roleCan(user.role, "delete_users") });
  // Add customer (app/admin/NewCustomerScreen.tsx): staff who may create accounts; a shop manager is told so.
  if (path === "customers/new") {
    if (!roleCan(user.role, "create_users"))
      return data(
        {
          view: "admin" as const,
          ...common,
          screen: { name: "not-allowed", message: "Sorry, you are not allowed to create customers." } satisfies AdminScreen,
        },
        { status: 403 },
      );
    return admin({ name: "customer-new" });
  }
  // Marketing (app/admin/CouponsScreen.tsx, CouponScreen.tsx, StoreNoticeScreen.tsx): an unknown coupon is the API's 404.
  if (path === "coupons") return admin({ name: "coupons" });
  if (path === "coupons/new") return admin({ name: "coupon", id: null });
  const coupon = /^coupons\/(\d{1,9})$/.exec(path);
  if (coupon) return admin({ name: "coupon", id: Number(coupon[1]) });
  if (path === "store-notice") return admin({ name: "store-notice" });
  // The header's menus (app/admin/MenusScreen.tsx); WordPress's nav-menus.php.
  if (path === "menus") return admin({ name: "menus" });
  // Staff (app/admin/people.tsx): administrators only; an unknown user is the API's 404.
  if (path === "users") return admin({ name: "staff" });
  if (path === "users/new") return admin({ name: "staff-user", id: null });
  const staffUser = /^users\/(\d{1,9})$/.exec(path);
  if (staffUser) return admin({ name: "staff-user", id: Number(staffUser[1]) });
  // Content (app/admin/content.tsx): moderation needs moderate_comments (both staff roles have it; anyone else signs in).
  if (path === "comments") {
    if (!roleCan(user.role, "moderate_comments")) throw redirect(signInUrl, 302);
    return admin({ name: "comments" });
  }
  if (path === "live") return admin({ name: "live" });
  // Messages sent through the contact form (app/admin/MessagesScreen.tsx): shop staff (manage_woocommerce), as its REST route.
  if (path === "messages") {
    if (!roleCan(user.role, "manage_woocommerce")) throw redirect(signInUrl, 302);
    return admin({ name: "messages" });
  }
  // The mail outbox (app/admin/EmailOutbox.tsx, decision 0032): its menu entry needs manage_woocommerce (403 otherwise).
  if (path === "outbox") return admin({ name: "outbox" });
  const outboxMessage = /^outbox\/(\d{1,9})$/.exec(path);
  if (outboxMessage) return admin({ name: "outbox-message", id: Number(outboxMessage[1]) });
  // Pages and posts (app/admin/ContentListScreen.tsx, ContentEditScreen.tsx): an unknown id is the 'missing' screen below.
  const contentList = /^(pages|posts)(\/new)?$/.exec(path);
  if (contentList) {
    const kind = contentList[1] === "pages" ? "page" : "post";
    if (!roleCan(user.role, kind === "page" ? "edit_pages" : "edit_posts")) throw redirect(signInUrl, 302);
    return admin(contentList[2] ? { name: "edit-content", kind, id: null } : { name: "content-list", kind });
  }
  // Discount rules and the promotion simulator (app/admin/discounts.tsx): an unknown rule is the API's 404.
  if (path === "discounts") return admin({ name: "discounts" });
  if (path === "discounts/new") return admin({ name: "discount", code: null });
  if (path === "discounts/simulate") return admin({ name: "discount-simulator" });
  const rule = /^discounts\/([a-z0-9][a-z0-9_-]{0,199})$/.exec(path);
  if (rule) return admin({ name: "discount", code: rule[1]! });
  // Settings (app/admin/settings.tsx): one tab per address; the tabs a role may open (consent: administrators).
  if (path === "settings") throw redirect(`/wp-admin/settings/${SETTINGS_TABS[0]}/`, 302);
  const settingsTab = /^settings\/([a-z]+)$/.exec(path);
  if (settingsTab && (SETTINGS_TABS as readonly string[]).includes(settingsTab[1]!)) {
    const tabs = SETTINGS_TABS.filter((t) => !SETTINGS_TAB_NEEDS[t] || roleCan(user.role, SETTINGS_TAB_NEEDS[t]));
    return admin({ name: "settings", tab: settingsTab[1] as SettingsTab, tabs });
  }
  // Popups (app/admin/popups.tsx): an unknown popup is the API's 404.
  if (path === "popups") return admin({ name: "popups" });
  if (path === "popups/new") return admin({ name: "popup", id: null });
  const popup = /^popups\/(\d{1,9})$/.exec(path);
  if (popup) return admin({ name: "popup", id: Number(popup[1]) });
  const customer = /^customers\/(\d{1,9})$/.exec(path);
  if (customer) {
    const found = await findUser(services.db, Number(customer[1]));
    if (!found) return admin({ name: "missing" }, 404);
    return admin({
      name: "customer",
      id: found.id,
      title: [found.firstName, found.lastName].filter(Boolean).join(" ") || found.email,
      canDelete: roleCan(user.role, "delete_users"),
    });
  }
  // WordPress's own address of the product list.
  if (path === "edit.php" && url.searchParams.get("post_type") === "product") throw redirect("/wp-admin/products/", 302);
  if (path === "edit.php") throw redirect(url.searchParams.get("post_type") === "page" ? "/wp-admin/pages/" : "/wp-admin/posts/", 302);
  if (path === "post-new.php") throw redirect(url.searchParams.get("post_type") === "page" ? "/wp-admin/pages/new/" : "/wp-admin/posts/new/", 302);
  // WordPress's own addresses of the users screens.
  if (path === "users.php") throw redirect("/wp-admin/users/", 302);
  if (path === "user-new.php") throw redirect("/wp-admin/users/new/", 302);
  if (path === "user-edit.php" && /^\d{1,9}$/.test(url.searchParams.get("user_id") ?? ""))
    throw redirect(`/wp-admin/users/${url.searchParams.get("user_id")}/`, 302);

  if (path === "post.php") {
    const q = url.searchParams;
    const id = /^\d{1,9}$/.test(q.get("post") ?? "") ? Number(q.get("post")) : 0;
    const type = q.get("post_type");
    const kind = type === "product" || type === "post" || type === "page" ? type : null;
    const target = q.get("action") === "edit" && id > 0 && (type === null || kind !== null) ? await findTarget(services.db, id, kind) : null;
    if (target) throw redirect(editScreenPath(target.kind, target.id), 302);
    return admin({ name: "missing" }, 404);
  }

  const edit = /^edit\/(product|post|page)\/(\d{1,9})$/.exec(path);
  if (edit) {
    const target = await findTarget(services.db, Number(edit[2]), edit[1] as EditKind);
    if (!target || target.kind !== edit[1]) return admin({ name: "missing" }, 404);
    if (target.kind === "product") return admin({ name: "product", id: target.id, title: target.title });
    return admin({ name: "edit-content", kind: target.kind, id: target.id });
  }
  return admin({ name: "not-built" }, 404);
}
