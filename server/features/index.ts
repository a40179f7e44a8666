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
import { consentFeature } from "./consent.ts";
import { trackingFeature } from "./tracking.ts";
import { popupsFeature } from "./popups.ts";
import { auditFeature } from "./audit.ts";
import { contentFeature } from "./content.ts";

export const FEATURES: Feature[] = [
  foundationFeature,
  liveFeature,
  discountsFeature,
  catalogFeature,
  commentsFeature,
  cartFeature,
  checkoutFeature,
  storeApiFeature,
  mailFeature,
  purgeFeature,
  shareFeature,
  usersFeature,
  consentFeature,
  trackingFeature,
  popupsFeature,
  auditFeature,
  contentFeature,
];
