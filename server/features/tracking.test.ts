import { describe, expect, it } from "vitest";
import { pageStep } from "./tracking.ts";

describe("the funnel's page steps", () => {
  it("counts shop, category and product pages as views and the checkout page as a checkout, their .data loads too", () => {
    for (const p of [
      "/shop/",
      "/shop/page/2/",
      "/product-category/masks/",
      "/product-category/masks/page/3/",
      "/product/silk-mask/",
      "/product/silk-mask.data",
      "/shop.data",
    ])
      expect(pageStep(p), p).toBe("view");
    expect(pageStep("/checkout/")).toBe("checkout");
    expect(pageStep("/checkout.data")).toBe("checkout");
    for (const p of [
      "/",
      "/_root.data",
      "/cart/",
      "/checkout/order-received/5/",
      "/checkout/order-pay/5/",
      "/product/",
      "/product/a/b/",
      "/blog/",
      "/my-account/",
    ])
      expect(pageStep(p), p).toBeNull();
  });
});
