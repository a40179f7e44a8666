/** Every feature of the shop, in the order their routes are mounted. One file per feature. */
import type { Feature } from "./feature.ts";
import { foundationFeature } from "./foundation.ts";
import { discountsFeature } from "./discounts.ts";
import { liveFeature } from "./live.ts";
import { catalogFeature } from "./catalog.ts";
import { cartFeature } from "./cart.ts";
import { commentsFeature } from "./comments.ts";
import { checkoutFeature } from "./checkout.ts";
import { storeApiFeature } from "./store-api.ts";
import { mailFeature } from "./mail.ts";
import { purgeFeature } from "./purge.ts";
import { shareFeature } from "./share.ts";
import { usersFeature } from "./users.ts";
import { downloadsFeature } from "./downloads.ts";
import { downloadPermissionsFeature } from "./download-permissions.ts";
import { customersFeature } from "./customers.ts";
import { consentFeature } from "./consent.ts";
import { trackingFeature } from "./tracking.ts";
import { popupsFeature } from "./popups.ts";
import { auditFeature } from "./audit.ts";
import { shopSettingsFeature } from "./shop-settings.ts";
import { shippingZonesFeature } from "./shipping-zones.ts";
import { wcTaxesFeature } from "./wc-taxes.ts";
import { menusFeature } from "./menus.ts";
import { wcOrdersFeature } from "./wc-orders.ts";
import { wcStoreAdminFeature } from "./wc-store-admin.ts";
import { applicationPasswordsFeature } from "./application-passwords.ts";
import { mediaFeature } from "./media.ts";
import { productsRestFeature } from "./products-rest.ts";
import { productCsvFeature } from "./product-csv.ts";
import { restTaxonomiesFeature } from "./rest-taxonomies.ts";
import { restReviewsFeature } from "./rest-reviews.ts";
import { contentFeature } from "./content.ts";
import { searchFeature } from "./search.ts";
import { adminDashboardFeature } from "./admin-dashboard.ts";
import { adminCustomersFeature } from "./admin-customers.ts";
import { contactMessagesFeature } from "./contact-messages.ts";
import { emailOutboxFeature } from "./email-outbox.ts";

export const FEATURES: Feature[] = [
  foundationFeature,
  liveFeature,
  discountsFeature,
  catalogFeature,
  searchFeature,
  // Before any wc/v3 products/:id route: the REST router takes the first pattern that matches, and ':id' matches 'categories'.
  restTaxonomiesFeature,
  restReviewsFeature,
  commentsFeature,
  cartFeature,
  checkoutFeature,
  storeApiFeature,
  mailFeature,
  purgeFeature,
  shareFeature,
  usersFeature,
  downloadsFeature, // before customers: wc/v3/customers/{id}/downloads
  downloadPermissionsFeature,
  customersFeature,
  consentFeature,
  trackingFeature,
  popupsFeature,
  auditFeature,
  shopSettingsFeature,
  shippingZonesFeature,
  wcTaxesFeature,
  menusFeature,
  wcOrdersFeature,
  wcStoreAdminFeature,
  applicationPasswordsFeature,
  mediaFeature,
  productsRestFeature,
  productCsvFeature,
  contentFeature,
  adminDashboardFeature,
  adminCustomersFeature,
  contactMessagesFeature,
  emailOutboxFeature,
];
