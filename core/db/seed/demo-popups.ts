/**
 * Three demo popups that show the engine's features (docs/contract/storefront.md §4 'Popups'): a newsletter sign-up
 * form (posting to /newsletter/) on exit intent, a 'free mask with 6' offer on scroll for shoppers with masks in the cart, and a size guide that a
 * click on the product page's "Size guide" link opens. Validated by the same schema as the REST API.
 */
import type { PopupSettingsInput } from "../../domain/popups/settings.ts";

export function demoPopups(ids: { faceMasks: number }): PopupSettingsInput[] {
  return [
    {
      title: "Newsletter sign-up",
      content: {
        heading: "Stay in the loop",
        text: ["New prints, matching sets and members-only offers, about twice a month."],
        signup: { label: "Email address", button: "Sign up" },
        dismiss: { label: "No thanks", do_not_show_again: true },
      },
      display: { avoid_multiple_popups: true, entrance_animation: "zoomIn", exit_animation: "fadeOut", close_button_delay: 1 },
      triggers: { exit_intent: {} },
      timing: { times: { times: 1, period: "week", count: "" }, logged_in: { users: "all", roles: [] } },
      conditions: { pages: [{ type: "exclude", name: "checkout" }] },
    },
    {
      title: "Free mask with 6",
      content: {
        heading: "A free mask with every 6",
        text: ["You have masks in your cart. Make it six and the seventh is on us — pick any colour."],
        cta: { label: "Shop face masks", href: "/product-category/face-masks/" },
        dismiss: { label: "Not now", do_not_show_again: false },
      },
      display: { avoid_multiple_popups: true, entrance_animation: "slideInUp", exit_animation: "slideOutDown", prevent_scroll: false },
      triggers: { scrolling: { direction: "down", offset: 50 } },
      timing: { times: { times: 2, period: "day", count: "open" } },
      conditions: {
        pages: [
          { type: "include", name: "shop" },
          { type: "include", name: "category" },
          { type: "include", name: "product" },
        ],
        cart: { contains_categories: [ids.faceMasks] },
      },
    },
    {
      title: "Size guide",
      content: {
        heading: "Size guide",
        text: [
          "S — children 6 to 12, ear to ear 22 cm.",
          "M — teens and small adults, 24 cm.",
          "L — most adults, 26 cm.",
          "XL — larger adults and beards, 28 cm.",
        ],
      },
      display: { open_selector: "a[href='#size-guide']", close_button_position: "outside", prevent_scroll: true, entrance_animation: "fadeIn" },
      triggers: {},
      timing: {},
      conditions: { pages: [{ type: "include", name: "product" }] },
    },
  ];
}
