import { type RouteConfig, index, route } from "@react-router/dev/routes";

// WordPress/WooCommerce-shaped addresses: trailing slashes, /page/{n} pagination.
export default [
  index("routes/home.tsx"),
  // WordPress's paged search results, /page/{n}/?s=… (docs/contract/storefront-search.md); without `s`, a 404.
  route("page/:page", "routes/home.tsx", { id: "home-paged" }),
  route("shop", "routes/shop.tsx", { id: "shop" }),
  route("shop/page/:page", "routes/shop.tsx", { id: "shop-paged" }),
  route("product-category/:category", "routes/shop.tsx", { id: "category" }),
  route("product-category/:category/page/:page", "routes/shop.tsx", { id: "category-paged" }),
  route("product/:slug", "routes/product.tsx"),
  route("quick-view/:slug", "routes/quick-view.ts"),
  route("cart", "routes/cart.tsx"),
  route("checkout", "routes/checkout.tsx"),
  route("checkout/order-received/:id", "routes/order-received.tsx"),
  route("checkout/order-pay/:id", "routes/order-pay.tsx"),
  route("my-account", "routes/my-account.tsx"),
  route("my-account/orders", "routes/account-orders.tsx"),
  route("my-account/downloads", "routes/account-downloads.tsx"),
  route("my-account/view-order/:id", "routes/account-view-order.tsx"),
  route("my-account/payment-methods", "routes/account-payment-methods.tsx"),
  route("my-account/add-payment-method", "routes/account-add-payment-method.tsx"),
  route("my-account/lost-password", "routes/account-lost-password.tsx"),
  route("my-account/edit-address", "routes/account-edit-address.tsx", { id: "edit-addresses" }),
  route("my-account/edit-address/:kind", "routes/account-edit-address.tsx", { id: "edit-address" }),
  route("my-account/edit-account", "routes/account-edit-account.tsx"),
  route("blog", "routes/blog.tsx", { id: "blog" }),
  route("blog/page/:page", "routes/blog.tsx", { id: "blog-paged" }),
  route("blog/:slug", "routes/post.tsx"),
  route("live", "routes/live.tsx"),
  route("change-country", "routes/change-country.ts"),
  route("newsletter", "routes/newsletter.ts"),
  // WordPress's sign-in and admin addresses (docs/contract/rest/auth.md); /wp-admin/admin-ajax.php is server/http's.
  route("wp-login.php", "routes/wp-login.tsx"),
  route("wp-admin", "routes/wp-admin.tsx", { id: "wp-admin" }),
  route("wp-admin/*", "routes/wp-admin.tsx", { id: "wp-admin-path" }),
  // A published page (wp/v2/pages) at its slug; the addresses above win over it, and an unknown slug is the 404 page.
  route(":slug", "routes/page.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
