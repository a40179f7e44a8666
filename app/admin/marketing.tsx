/**
 * Marketing (docs/contract/admin.md 'Coupons', 'Store notice & Coming soon'): the screens main.tsx renders for the
 * coupons and the store notice, kept here so main.tsx only asks this file.
 */
import type { AdminScreen } from "./screens.ts";
import CouponsScreen from "./CouponsScreen.tsx";
import CouponScreen from "./CouponScreen.tsx";
import StoreNoticeScreen from "./StoreNoticeScreen.tsx";

export function marketingScreen(screen: AdminScreen) {
  if (screen.name === "coupons") return <CouponsScreen />;
  if (screen.name === "coupon") return <CouponScreen id={screen.id} />;
  if (screen.name === "store-notice") return <StoreNoticeScreen />;
  return null;
}
