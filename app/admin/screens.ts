/**
 * The admin's screens (docs/contract/admin.md): which one an address under /wp-admin/ opens. The loader
 * (app/routes/wp-admin.server.ts) names it; the frame (app/routes/wp-admin.tsx) renders its heading and loads its
 * code in the browser.
 */
export type AdminScreen =
  | { name: "dashboard" }
  | { name: "products" }
  | { name: "product"; id: number; title: string }
  | { name: "orders" }
  | { name: "order"; id: number }
  | { name: "customers" }
  | { name: "customer"; id: number; title: string }
  | { name: "coupons" }
  | { name: "coupon"; id: number | null }
  | { name: "store-notice" }
  | { name: "popups" }
  | { name: "popup"; id: number | null }
  | { name: "edit-content"; kind: "post" | "page"; title: string; restUrl: string; viewUrl: string }
  | { name: "missing" }
  | { name: "not-built" };

/** The admin's navigation, in order. */
export const ADMIN_MENU = [
  { label: "Dashboard", href: "/wp-admin/", screens: ["dashboard"] },
  { label: "Products", href: "/wp-admin/products/", screens: ["products", "product"] },
  { label: "Orders", href: "/wp-admin/orders/", screens: ["orders", "order"] },
  { label: "Customers", href: "/wp-admin/customers/", screens: ["customers", "customer"] },
  { label: "Coupons", href: "/wp-admin/coupons/", screens: ["coupons", "coupon"] },
  { label: "Store notice", href: "/wp-admin/store-notice/", screens: ["store-notice"] },
  { label: "Popups", href: "/wp-admin/popups/", screens: ["popups", "popup"] },
] as const;

export function screenTitle(screen: AdminScreen): string {
  switch (screen.name) {
    case "dashboard":
      return "Dashboard";
    case "products":
      return "Products";
    case "product":
      return "Edit Product";
    case "orders":
      return "Orders";
    case "order":
      return `Order #${screen.id}`;
    case "customers":
      return "Customers";
    case "customer":
      return screen.title;
    case "coupons":
      return "Coupons";
    case "coupon":
      return screen.id === null ? "Add coupon" : "Edit coupon";
    case "store-notice":
      return "Store notice & Coming soon";
    case "popups":
      return "Popups";
    case "popup":
      return screen.id === null ? "Add popup" : "Edit popup";
    case "edit-content":
      return screen.kind === "post" ? "Edit Post" : "Edit Page";
    default:
      return "Not found";
  }
}
