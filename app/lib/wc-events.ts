/**
 * WooCommerce's front-end events, both ways (docs/contract/wire.md §1.8). Our pages raise DOM `CustomEvent`s on
 * `document.body` with the jQuery arguments in `detail`; when jQuery is on the page, the same event is also
 * triggered through jQuery with WooCommerce's argument lists, so `$(document.body).on('added_to_cart',
 * (e, fragments, cart_hash, $button) => …)` gets its arguments. The other way, what other scripts trigger through
 * jQuery (`wc_fragment_refresh`, `update_checkout`, `added_to_cart`, …) reaches our DOM listeners.
 *
 * jQuery also hears native events of the names it is bound to, with no arguments. While we dispatch our native
 * event, `jQuery.event.triggered` holds its name: jQuery's own guard against a second run of a triggered event, so
 * its handlers run once, from the trigger, with the arguments.
 */

interface JQueryEventLike {
  type: string;
  originalEvent?: Event;
}
type JQueryHandler = (event: JQueryEventLike, ...args: unknown[]) => unknown;
export interface JQueryCollection {
  readonly length: number;
  readonly [index: number]: Element;
  on(types: string, handler: JQueryHandler): unknown;
  off(types: string, handler: JQueryHandler): unknown;
  trigger(type: string, args?: unknown[]): unknown;
  triggerHandler(type: string, args?: unknown[]): unknown;
  is(selector: string): boolean;
}
interface JQueryLike {
  (target: unknown): JQueryCollection;
  fn?: { jquery?: string };
  event?: { triggered?: string | undefined };
  _data?: (element: Element, key: string) => unknown;
}

/** jQuery, when a theme or plugin put it on the page. */
export function pageJQuery(): JQueryLike | null {
  const candidate = (window as { jQuery?: unknown }).jQuery as JQueryLike | undefined;
  return typeof candidate === "function" && typeof candidate.fn?.jquery === "string" ? candidate : null;
}

type Detail = Record<string, unknown> | undefined;
const button = ($: JQueryLike, d: Detail) => $(d?.button ?? []);

/** WooCommerce's argument list for each event we raise (add-to-cart.js, cart.js, checkout.js), from our detail. */
const OUTGOING_ARGS: Record<string, ($: JQueryLike, d: Detail) => unknown[]> = {
  "should_send_ajax_request.adding_to_cart": ($, d) => [button($, d)],
  "ajax_request_not_sent.adding_to_cart": ($, d) => [false, false, button($, d)],
  adding_to_cart: ($, d) => [button($, d), d?.data],
  added_to_cart: ($, d) => [d?.fragments, d?.cart_hash, button($, d)],
  removed_from_cart: ($, d) => [d?.fragments, d?.cart_hash, button($, d)],
  wc_cart_button_updated: ($, d) => [button($, d)],
};

/** What other scripts trigger through jQuery that our listeners act on, and the detail their arguments become. */
const INCOMING_DETAIL: Record<string, (args: unknown[]) => unknown> = {
  wc_fragment_refresh: () => ({}),
  updated_wc_div: () => ({}),
  // checkout.js: trigger('update_checkout', { update_shipping_method: false }) → handler(e, args).
  update_checkout: (args) => args[0] ?? {},
  added_to_cart: ([fragments, cart_hash, $button]) => ({ fragments, cart_hash, button: ($button as JQueryCollection | undefined)?.[0] }),
  removed_from_cart: ([fragments, cart_hash, $button]) => ({ fragments, cart_hash, button: ($button as JQueryCollection | undefined)?.[0] }),
};

/** Names being handed to jQuery by emitWcEvent right now: the bridge's own jQuery listeners leave them alone. */
const outgoing = new Set<string>();

function dispatchNative($: JQueryLike | null, target: EventTarget, name: string, detail: unknown, cancelable: boolean): boolean {
  const guard = $?.event;
  const previous = guard?.triggered;
  if (guard) guard.triggered = name;
  try {
    return target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, cancelable }));
  } finally {
    if (guard) guard.triggered = previous;
  }
}

export interface EmitOptions {
  /** A listener may veto: a DOM listener with preventDefault(), a jQuery handler by returning false (triggerHandler). */
  cancelable?: boolean;
  /** Default document.body; checkout.js's place-order events go to the checkout form. */
  target?: Element;
  /** The jQuery arguments, when they are not derived from `detail` (OUTGOING_ARGS, else `[detail]`). */
  args?: unknown[];
}

/** Raises a WooCommerce event from our code; false when a listener vetoed a cancelable one. */
export function emitWcEvent(name: string, detail: unknown = {}, opts: EmitOptions = {}): boolean {
  const target = opts.target ?? document.body;
  const cancelable = opts.cancelable ?? false;
  const $ = pageJQuery();
  const allowed = dispatchNative($, target, name, detail, cancelable);
  if (!$) return allowed;
  const args =
    opts.args ??
    OUTGOING_ARGS[name]?.($, detail as Detail) ??
    (detail === undefined || (typeof detail === "object" && detail !== null && Object.keys(detail).length === 0) ? [] : [detail]);
  outgoing.add(name);
  try {
    if (cancelable) return $(target).triggerHandler(name, args) !== false && allowed;
    $(target).trigger(name, args);
    return allowed;
  } finally {
    outgoing.delete(name);
  }
}

/**
 * True when WooCommerce's own add-to-cart.js is on the page and will handle this click itself: its delegated click
 * handlers on document.body carry `{ addToCartHandler }` as their data (add-to-cart.js, AddToCartHandler
 * constructor), and it acts on `.ajax_add_to_cart` buttons with a product id and on mini-cart remove links.
 * Then ours stays out, or one click would add twice.
 */
export function handledByAddToCartJs(element: Element): boolean {
  const $ = pageJQuery();
  const events = $?._data?.(document.body, "events") as Record<string, { selector?: string; data?: unknown }[]> | undefined;
  const claims = (events?.click ?? []).some(
    (h) => typeof h.data === "object" && h.data !== null && "addToCartHandler" in h.data && !!h.selector && $!(element).is(h.selector),
  );
  if (!claims) return false;
  if (element.matches(".remove_from_cart_button")) return true;
  return element.matches(".ajax_add_to_cart") && !!element.getAttribute("data-product_id");
}

/** Listens, through jQuery, for what other scripts trigger, and raises it as our DOM event. Returns the unmount. */
export function mountJQueryBridge(): () => void {
  const $ = pageJQuery();
  if (!$) return () => undefined;
  const body = $(document.body);
  const bound = Object.entries(INCOMING_DETAIL).map(([name, toDetail]) => {
    const handler: JQueryHandler = (event, ...args) => {
      // Ours on the way out, or a native event our DOM listeners already heard.
      if (outgoing.has(name) || event.originalEvent) return;
      dispatchNative($, document.body, name, toDetail(args), false);
    };
    body.on(name, handler);
    return [name, handler] as const;
  });
  return () => bound.forEach(([name, handler]) => body.off(name, handler));
}
