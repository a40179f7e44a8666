/**
 * Discounts (docs/contract/admin.md 'Discount rules', 'Promotion simulator'): the screens main.tsx renders for the
 * pricing engine's rules and the simulator, kept here so main.tsx only asks this file.
 */
import type { AdminScreen } from "./screens.ts";
import DiscountsScreen from "./DiscountsScreen.tsx";
import DiscountRuleScreen from "./DiscountRuleScreen.tsx";
import { PromotionSimulator } from "./PromotionSimulator.tsx";

export function discountsScreen(screen: AdminScreen) {
  if (screen.name === "discounts") return <DiscountsScreen />;
  if (screen.name === "discount") return <DiscountRuleScreen code={screen.code} />;
  if (screen.name === "discount-simulator") return <PromotionSimulator />;
  return null;
}
