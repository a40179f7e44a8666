/**
 * The admin's screens (docs/contract/admin.md): which one an address under /wp-admin/ opens. The loader
 * (app/routes/wp-admin.server.ts) names it; the frame (app/routes/wp-admin.tsx) renders its heading and loads its
 * code in the browser.
 */
export type AdminScreen =
  | { name: "dashboard" }
  | { name: "products" }
  | { name: "product"; id: number; title: string }
  | { name: "product-new" }
  | { name: "attributes" }
  | { name: "attribute"; id: number }
  | { name: "product-import" }
  | { name: "product-export" }
  | { name: "orders" }
  | { name: "order"; id: number }
  | { name: "packing-slip"; id: number }
  | { name: "customers"; canCreate?: boolean; canDelete?: boolean }
  | { name: "customer"; id: number; title: string; canDelete?: boolean }
  | { name: "customer-new" }
  | { name: "coupons" }
  | { name: "coupon"; id: number | null }
  | { name: "store-notice" }
  | { name: "menus" }
  | { name: "staff" }
  | { name: "staff-user"; id: number | null }
  | { name: "not-allowed"; message: string }
  | { name: "comments" }
  | { name: "live" }
  | { name: "discounts" }
  | { name: "discount"; code: string | null }
  | { name: "discount-simulator" }
  | { name: "popups" }
  | { name: "popup"; id: number | null }
  | { name: "content-list"; kind: "post" | "page" }
  | { name: "edit-content"; kind: "post" | "page"; id: number | null }
  | { name: "messages" }
  | { name: "outbox" }
  | { name: "outbox-message"; id: number }
  | { name: "settings"; tab: SettingsTab; tabs: SettingsTab[] }
  | { name: "missing" }
  | { name: "not-built" };

/** The Settings screen's tabs, in order (app/admin/settings.tsx), each at /wp-admin/settings/{tab}/. */
export const SETTINGS_TABS = ["checkout", "general", "shipping", "tax", "payments", "emails", "attribution", "consent"] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];
export const SETTINGS_TAB_LABELS: Record<SettingsTab, string> = {
  checkout: "Checkout",
  general: "General",
  shipping: "Shipping",
  tax: "Tax",
  payments: "Payments",
  emails: "E-mails",
  attribution: "Order attribution",
  consent: "Privacy & consent",
};

/**
 * The admin's navigation, in order. An entry with `needs` (a capability of core/security/capabilities.ts) is shown
 * only to roles that have it, and its screens refuse everyone else (app/routes/wp-admin.server.ts).
 */
export const ADMIN_MENU = [
  { label: "Dashboard", href: "/wp-admin/", screens: ["dashboard"] },
  {
    label: "Products",
    href: "/wp-admin/products/",
    screens: ["products", "product", "product-new", "attributes", "attribute", "product-import", "product-export"],
  },
  { label: "Orders", href: "/wp-admin/orders/", screens: ["orders", "order", "packing-slip"] },
  { label: "Customers", href: "/wp-admin/customers/", screens: ["customers", "customer", "customer-new"] },
  { label: "Coupons", href: "/wp-admin/coupons/", screens: ["coupons", "coupon"] },
  { label: "Store notice", href: "/wp-admin/store-notice/", screens: ["store-notice"] },
  { label: "Menus", href: "/wp-admin/menus/", screens: ["menus"] },
  { label: "Popups", href: "/wp-admin/popups/", screens: ["popups", "popup"] },
  { label: "Discounts", href: "/wp-admin/discounts/", screens: ["discounts", "discount", "discount-simulator"] },
  { label: "Pages", href: "/wp-admin/pages/", screens: ["content-list:page", "edit-content:page"] },
  { label: "Posts", href: "/wp-admin/posts/", screens: ["content-list:post", "edit-content:post"] },
  { label: "Reviews", href: "/wp-admin/comments/", screens: ["comments"] },
  { label: "Messages", href: "/wp-admin/messages/", screens: ["messages"] },
  { label: "Live scores", href: "/wp-admin/live/", screens: ["live"] },
  { label: "Settings", href: "/wp-admin/settings/", screens: ["settings"], needs: "manage_woocommerce" },
  { label: "E-mail outbox", href: "/wp-admin/outbox/", screens: ["outbox", "outbox-message"], needs: "manage_woocommerce" },
  { label: "Staff", href: "/wp-admin/users/", screens: ["staff", "staff-user"], needs: "promote_users" },
] as const;

/** The menu's key of a screen: its name, and for the content screens also its kind (Pages and Posts share them). */
export function screenKey(screen: AdminScreen): string {
  return screen.name === "content-list" || screen.name === "edit-content" ? `${screen.name}:${screen.kind}` : screen.name;
}

export function screenTitle(screen: AdminScreen): string {
  switch (screen.name) {
    case "dashboard":
      return "Dashboard";
    case "products":
      return "Products";
    case "product":
      return "Edit Product";
    case "product-new":
      return "Add product";
    case "attributes":
      return "Attributes";
    case "attribute":
      return "Attribute terms";
    case "product-import":
      return "Import products";
    case "product-export":
      return "Export products";
    case "orders":
      return "Orders";
    case "order":
      return `Order #${screen.id}`;
    case "packing-slip":
      return `Packing slip for order #${screen.id}`;
    case "customers":
      return "Customers";
    case "customer":
      return screen.title;
    case "customer-new":
      return "Add customer";
    case "coupons":
      return "Coupons";
    case "coupon":
      return screen.id === null ? "Add coupon" : "Edit coupon";
    case "menus":
      return "Menus";
    case "store-notice":
      return "Store notice & Coming soon";
    case "staff":
      return "Staff";
    case "staff-user":
      return screen.id === null ? "Add staff user" : "Edit staff user";
    case "not-allowed":
      return "Not allowed";
    case "comments":
      return "Reviews & comments";
    case "live":
      return "Live scores";
    case "discounts":
      return "Discount rules";
    case "discount":
      return screen.code === null ? "Add discount rule" : "Edit discount rule";
    case "discount-simulator":
      return "Promotion simulator";
    case "popups":
      return "Popups";
    case "popup":
      return screen.id === null ? "Add popup" : "Edit popup";
    case "settings":
      return `Settings: ${SETTINGS_TAB_LABELS[screen.tab]}`;
    case "content-list":
      return screen.kind === "post" ? "Posts" : "Pages";
    case "edit-content":
      return screen.id === null ? (screen.kind === "post" ? "Add post" : "Add page") : screen.kind === "post" ? "Edit Post" : "Edit Page";
    case "messages":
      return "Messages";
    case "outbox":
      return "E-mail outbox";
    case "outbox-message":
      return `E-mail #${screen.id}`;
    default:
      return "Not found";
  }
}
