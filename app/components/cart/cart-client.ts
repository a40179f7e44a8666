/**
 * The cart in the browser, as WooCommerce's add-to-cart.js, cart-fragments.js and cart.js and Astra's
 * single-product add behave (docs/contract/storefront.md §4, docs/contract/wire.md §1.3–§1.8), without jQuery: events are DOM
 * CustomEvents on document.body whose `detail` carries what jQuery passed as arguments; with jQuery on the page they
 * are also triggered through it with WooCommerce's arguments (app/lib/wc-events.ts).
 */
import { SITE_CONFIG } from "../../../core/config/site-config.ts";
import { emitWcEvent, handledByAddToCartJs, mountJQueryBridge } from "../../lib/wc-events.ts";
import { closeAllOverlays, onCloseAllOverlays } from "../../lib/overlays.ts";

interface AddToCartParams {
  ajax_url: string;
  wc_ajax_url: string;
  i18n_view_cart: string;
  cart_url: string;
  is_cart: string;
  cart_redirect_after_add: string;
}
interface FragmentsParams {
  wc_ajax_url: string;
  cart_hash_key: string;
  fragment_name: string;
  request_timeout: string;
}
interface AstraParams {
  ajax_url: string;
  checkout_url: string;
  add_to_cart_options_single: string;
  single_product_ajax_add_to_cart: string;
  break_point: string;
}
interface CartResponse {
  fragments?: Record<string, string>;
  cart_hash?: string;
  error?: boolean;
  product_url?: string | false;
}

const T = SITE_CONFIG.timings;
const CART = SITE_CONFIG.cart;
const CREATED_KEY = "wc_cart_created";

declare global {
  interface Window {
    wc_add_to_cart_params?: AddToCartParams;
    wc_cart_fragments_params?: FragmentsParams;
    wc_cart_params?: { update_shipping_method_nonce: string };
    astra?: AstraParams;
  }
}

const body = () => document.body;
function emit(name: string, detail: unknown = {}, cancelable = false): boolean {
  return emitWcEvent(name, detail, { cancelable });
}

function readCookie(name: string): string {
  const m = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  return m ? decodeURIComponent(m.slice(name.length + 1)) : "";
}

function endpoint(name: string): string {
  return (window.wc_add_to_cart_params?.wc_ajax_url ?? window.wc_cart_fragments_params?.wc_ajax_url ?? "/?wc-ajax=%%endpoint%%").replace("%%endpoint%%", name);
}

async function postForm(url: string, data: URLSearchParams, timeoutMs?: number): Promise<Response> {
  const controller = new AbortController();
  const timer = timeoutMs ? setTimeout(() => controller.abort(), timeoutMs) : undefined;
  try {
    return await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8", "X-Requested-With": "XMLHttpRequest" },
      body: data.toString(),
      signal: controller.signal,
    });
  } finally {
    if (timer) clearTimeout(timer);
  }
}

async function readJson(res: Response): Promise<CartResponse | null> {
  const text = await res.text();
  if (!text.trim()) return null;
  try {
    return JSON.parse(text) as CartResponse | null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------
// Blocking regions, replacing fragments
// ---------------------------------------------------------------------------------------------------

export function block(el: Element): void {
  const h = el as HTMLElement;
  if (h.classList.contains("processing")) return;
  h.classList.add("processing");
  h.style.opacity = String(T.updatingOverlayOpacity);
  h.setAttribute("aria-busy", "true");
  const overlay = document.createElement("div");
  overlay.className = "blockUI blockOverlay";
  if (getComputedStyle(h).position === "static") h.style.position = "relative";
  h.appendChild(overlay);
}

export function unblock(el: Element): void {
  const h = el as HTMLElement;
  h.classList.remove("processing");
  h.style.opacity = "";
  h.removeAttribute("aria-busy");
  h.querySelectorAll(":scope > .blockUI").forEach((o) => o.remove());
}

function htmlToElement(html: string): Element | null {
  const t = document.createElement("template");
  t.innerHTML = html.trim();
  return t.content.firstElementChild;
}

/** jQuery's $(key).replaceWith(html) for every pair: dim, replace, restore. */
function replaceFragments(fragments: Record<string, string>): void {
  for (const [selector, html] of Object.entries(fragments)) {
    let targets: Element[];
    try {
      targets = [...document.querySelectorAll(selector)];
    } catch {
      continue;
    }
    for (const target of targets) {
      block(target);
      const next = htmlToElement(html);
      if (next) target.replaceWith(next);
      else unblock(target);
    }
  }
  syncMiniCartVisibility();
  emit("wc_fragments_loaded");
}

/** The mini-cart widget shows only while the items-in-cart cookie is set. */
function syncMiniCartVisibility(): void {
  const has = readCookie("woocommerce_items_in_cart") !== "";
  document.querySelectorAll(".widget_shopping_cart").forEach((w) => w.classList.toggle("hide_cart_widget_if_empty", !has));
}

// ---------------------------------------------------------------------------------------------------
// The fragments cache (cart-fragments.js)
// ---------------------------------------------------------------------------------------------------

function fragmentsCache() {
  const p = window.wc_cart_fragments_params;
  if (!p) return null;
  let storageOk = true;
  try {
    sessionStorage.setItem("wc", "test");
    sessionStorage.removeItem("wc");
    localStorage.setItem("wc", "test");
    localStorage.removeItem("wc");
  } catch {
    storageOk = false;
  }
  const time = String(Date.now()); // fixed when the script loads, as WooCommerce does
  let timer: ReturnType<typeof setTimeout> | undefined;

  const setHash = (hash: string) => {
    if (!storageOk) return;
    localStorage.setItem(p.cart_hash_key, hash);
    sessionStorage.setItem(p.cart_hash_key, hash);
  };
  const store = (fragments: Record<string, string>, hash: string) => {
    if (!storageOk) return;
    sessionStorage.setItem(p.fragment_name, JSON.stringify(fragments));
    setHash(hash);
  };
  const scheduleRefresh = (inMs: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(refresh, Math.max(0, inMs));
  };

  async function refresh(): Promise<void> {
    try {
      const res = await postForm(
        endpoint("get_refreshed_fragments"),
        new URLSearchParams({ time }),
        Number(p!.request_timeout) || CART.fragmentsRequestTimeoutMs,
      );
      if (!res.ok) throw new Error(`status ${res.status}`);
      const data = (await res.json()) as CartResponse;
      if (data?.fragments && Object.keys(data.fragments).length) {
        replaceFragments(data.fragments);
        store(data.fragments, data.cart_hash ?? "");
        if (data.cart_hash && storageOk) sessionStorage.setItem(CREATED_KEY, String(Date.now()));
        emit("wc_fragments_refreshed");
        scheduleRefresh(CART.fragmentsExpireMs);
      }
    } catch {
      emit("wc_fragments_ajax_error");
    }
  }

  /**
   * Reuse the stored fragments only when all of docs/contract/wire.md §1.7's conditions hold; otherwise fetch. On a
   * page kept for everyone (its cart parts are placeholders: docs/decisions/0042-cart-shoppers-cached.md) the stored
   * header link (a count, no price) is shown at once and the rest is always fetched: such a page did not set the
   * cart hash cookie, so a price changed since the fragments were stored would not show in the hash.
   */
  function onLoad(): void {
    try {
      if (!storageOk) throw new Error("No storage");
      const storedHash = sessionStorage.getItem(p!.cart_hash_key);
      const created = sessionStorage.getItem(CREATED_KEY);
      if (storedHash === null || !created) throw new Error("No cart_created");
      const expires = Number(created) + CART.fragmentsExpireMs;
      if (!(expires > Date.now())) throw new Error("Fragment expired");
      scheduleRefresh(expires - Date.now());
      const raw = sessionStorage.getItem(p!.fragment_name);
      const fragments = raw ? (JSON.parse(raw) as Record<string, string>) : null;
      if (!fragments || !fragments["div.widget_shopping_cart_content"] || storedHash !== readCookie("woocommerce_cart_hash")) throw new Error("No fragment");
      if (document.querySelector("[data-cart-placeholder]")) {
        const link = fragments["a.cart-contents"];
        if (link) replaceFragments({ "a.cart-contents": link });
        throw new Error("A page for everyone");
      }
      replaceFragments(fragments);
    } catch {
      void refresh();
    }
  }

  const onCartEvent = (e: Event) => {
    const d = (e as CustomEvent<{ fragments?: Record<string, string>; cart_hash?: string }>).detail;
    if (!storageOk || !d?.fragments) return;
    const hadHash = sessionStorage.getItem(p.cart_hash_key);
    if (hadHash === null || hadHash === "") sessionStorage.setItem(CREATED_KEY, String(Date.now()));
    store(d.fragments, d.cart_hash ?? "");
  };
  const onStorage = (e: StorageEvent) => {
    if (e.key === p.cart_hash_key && e.newValue !== sessionStorage.getItem(p.cart_hash_key)) void refresh();
  };
  const onPageShow = (e: PageTransitionEvent) => {
    if (!e.persisted) return;
    document.querySelectorAll(".widget_shopping_cart_content").forEach((el) => (el.innerHTML = ""));
    void refresh();
  };
  const onRefreshRequest = () => void refresh();

  body().addEventListener("added_to_cart", onCartEvent);
  body().addEventListener("removed_from_cart", onCartEvent);
  body().addEventListener("wc_fragment_refresh", onRefreshRequest);
  body().addEventListener("updated_wc_div", onRefreshRequest);
  window.addEventListener("storage", onStorage);
  window.addEventListener("pageshow", onPageShow);
  onLoad();
  return () => {
    if (timer) clearTimeout(timer);
    body().removeEventListener("added_to_cart", onCartEvent);
    body().removeEventListener("removed_from_cart", onCartEvent);
    body().removeEventListener("wc_fragment_refresh", onRefreshRequest);
    body().removeEventListener("updated_wc_div", onRefreshRequest);
    window.removeEventListener("storage", onStorage);
    window.removeEventListener("pageshow", onPageShow);
  };
}

// ---------------------------------------------------------------------------------------------------
// Add to cart (add-to-cart.js, Astra single product, listing variations)
// ---------------------------------------------------------------------------------------------------

/** Cart requests run one at a time, in order. */
let queue: Promise<unknown> = Promise.resolve();
function enqueue<T>(job: () => Promise<T>): Promise<T> {
  const run = queue.then(job, job);
  queue = run.catch(() => undefined);
  return run;
}

function liveRegion(): HTMLElement {
  let el = document.getElementById("wc-cart-announcer");
  if (!el) {
    el = document.createElement("div");
    el.id = "wc-cart-announcer";
    el.className = "screen-reader-text";
    el.setAttribute("role", "status");
    el.setAttribute("aria-live", "polite");
    body().appendChild(el);
  }
  return el;
}

function announce(message: string): void {
  setTimeout(() => (liveRegion().textContent = message), T.cartSuccessAnnounceMs);
}

/** Only a product page of this shop: a product_url pointing elsewhere is never followed. */
export function safeProductUrl(raw: unknown): string | null {
  if (typeof raw !== "string" || !raw) return null;
  try {
    const url = new URL(raw, location.href);
    if (url.origin !== location.origin || !url.pathname.startsWith("/product/")) return null;
    return url.href;
  } catch {
    return null;
  }
}

function buttonData(button: HTMLElement): URLSearchParams {
  const data = new URLSearchParams();
  for (const attr of [...button.attributes]) if (attr.name.startsWith("data-")) data.set(attr.name.slice(5), attr.value);
  return data;
}

function isDisabled(el: HTMLElement): boolean {
  return el.classList.contains("disabled") || el.getAttribute("aria-disabled") === "true" || (el as HTMLButtonElement).disabled === true;
}

function addedState(button: HTMLElement): void {
  button.classList.remove("loading");
  button.classList.add("added");
  const params = window.wc_add_to_cart_params;
  if (params && !params.is_cart && !button.parentElement?.querySelector(".added_to_cart")) {
    const link = document.createElement("a");
    link.href = params.cart_url;
    link.className = "added_to_cart wc-forward";
    link.title = params.i18n_view_cart;
    link.textContent = params.i18n_view_cart;
    button.after(link);
  }
  emit("wc_cart_button_updated", { button });
}

/** After a variation add: the cart table and totals come back from the current page, in place. */
async function reloadCartSections(): Promise<void> {
  const form = document.querySelector(".woocommerce-cart-form");
  const totals = document.querySelector(".cart_totals");
  if (!form && !totals) return;
  [form, totals].forEach((el) => el && block(el));
  try {
    const url = new URL(location.href);
    url.searchParams.delete("add-to-cart");
    url.searchParams.set("added-to-cart", "1");
    const html = await (await fetch(url, { credentials: "same-origin" })).text();
    const doc = new DOMParser().parseFromString(html, "text/html");
    for (const sel of [".woocommerce-cart-form", ".cart_totals"]) {
      const fresh = doc.querySelector(sel);
      const old = document.querySelector(sel);
      if (fresh && old) old.replaceWith(document.importNode(fresh, true));
      else if (old) unblock(old);
    }
    mountCartPage();
  } catch {
    [form, totals].forEach((el) => el && unblock(el));
  }
}

async function handleAddResponse(res: CartResponse | null, button: HTMLElement, opts: { variation: boolean }): Promise<void> {
  if (!res) {
    button.classList.remove("loading");
    return;
  }
  if (res.error && res.product_url) {
    const url = safeProductUrl(res.product_url);
    button.classList.remove("loading");
    if (url) location.href = url;
    return;
  }
  if (window.wc_add_to_cart_params?.cart_redirect_after_add === "yes") {
    location.href = window.wc_add_to_cart_params.cart_url;
    return;
  }
  if (!res.fragments) {
    button.classList.remove("loading");
    return;
  }
  replaceFragments(res.fragments);
  addedState(button);
  const message = button.dataset.success_message;
  if (message) announce(message);
  if (opts.variation) await reloadCartSections();
  emit("added_to_cart", { fragments: res.fragments, cart_hash: res.cart_hash ?? "", button });
}

function onAddButtonClick(e: MouseEvent): void {
  const button = (e.target as Element | null)?.closest<HTMLElement>(".ajax_add_to_cart, .jck_wssv_add_to_cart, .add_to_cart_button[data-variation_id]");
  if (!button) return;
  const isVariation = button.hasAttribute("data-variation_id");
  if (!button.hasAttribute("data-product_id")) return; // no product id: the link navigates normally
  // WooCommerce's add-to-cart.js on the page sends this add itself; its events reach ours through the bridge.
  if (handledByAddToCartJs(button)) return;
  e.preventDefault();
  if (isDisabled(button)) return;
  // The pre-send check: a listener may cancel this event to veto the request.
  if (!emit("should_send_ajax_request.adding_to_cart", { button }, true)) {
    button.classList.remove("loading");
    emit("ajax_request_not_sent.adding_to_cart", { button });
    return;
  }
  button.classList.remove("added");
  button.classList.add("loading");
  const data = buttonData(button);
  emit("adding_to_cart", { button, data: Object.fromEntries(data) });
  void enqueue(async () => {
    try {
      let res: Response;
      if (isVariation) {
        data.set("action", "jck_wssv_add_to_cart");
        res = await postForm(window.wc_add_to_cart_params?.ajax_url ?? "/wp-admin/admin-ajax.php", data);
      } else res = await postForm(endpoint("add_to_cart"), data);
      await handleAddResponse(res.ok ? await readJson(res) : null, button, { variation: isVariation });
    } catch {
      button.classList.remove("loading");
    }
  });
}

/** Astra's in-place single-product add: the browser's validity check first, then the serialized form. */
function onProductFormSubmit(e: SubmitEvent): void {
  const form = (e.target as Element | null)?.closest<HTMLFormElement>("form.cart");
  const astra = window.astra;
  if (!form || !astra || !astra.single_product_ajax_add_to_cart || form.method.toLowerCase() !== "post") return;
  if (form.closest(".woocommerce-cart-form") || form.classList.contains("woocommerce-cart-form")) return;
  const submitter = (e.submitter as HTMLButtonElement | null) ?? form.querySelector<HTMLButtonElement>(".single_add_to_cart_button");
  if (submitter && isDisabled(submitter)) {
    e.preventDefault();
    return;
  }
  e.preventDefault();
  if (!form.checkValidity()) {
    form.reportValidity();
    return;
  }
  const data = new URLSearchParams();
  for (const [k, v] of new FormData(form)) if (typeof v === "string") data.append(k, v);
  if (submitter?.name && !data.has(submitter.name)) data.append(submitter.name, submitter.value);
  data.set("action", "astra_add_cart_single_product");
  const button = submitter ?? form;
  button.classList.remove("added");
  button.classList.add("loading");
  void enqueue(async () => {
    try {
      const res = await postForm(astra.ajax_url, data);
      const json = res.ok ? await readJson(res) : null;
      if (!json || !json.fragments) {
        location.reload();
        return;
      }
      replaceFragments(json.fragments);
      button.classList.remove("loading");
      button.classList.add("added");
      emit("added_to_cart", { fragments: json.fragments, cart_hash: json.cart_hash ?? "", button });
      const option = astra.add_to_cart_options_single;
      if (option === "slide_in_cart") openDrawer();
      else if (option === "redirect_cart_page") location.href = window.wc_add_to_cart_params?.cart_url ?? "/cart/";
      else if (option === "redirect_checkout_page") location.href = astra.checkout_url;
      else if (window.wc_add_to_cart_params?.cart_redirect_after_add === "yes") location.href = window.wc_add_to_cart_params.cart_url;
    } catch {
      location.reload();
    }
  });
}

// ---------------------------------------------------------------------------------------------------
// Mini-cart removal, drawer
// ---------------------------------------------------------------------------------------------------

function onRemoveClick(e: MouseEvent): void {
  const link = (e.target as Element | null)?.closest<HTMLAnchorElement>(".remove_from_cart_button");
  if (!link || handledByAddToCartJs(link)) return;
  e.preventDefault();
  const item = link.closest(".woocommerce-mini-cart-item") ?? link;
  block(item);
  const href = link.href;
  void enqueue(async () => {
    try {
      const res = await postForm(endpoint("remove_from_cart"), new URLSearchParams({ cart_item_key: link.dataset.cart_item_key ?? "" }));
      const json = res.ok ? await readJson(res) : null;
      if (!json?.fragments) {
        location.href = href;
        return;
      }
      replaceFragments(json.fragments);
      emit("removed_from_cart", { fragments: json.fragments, cart_hash: json.cart_hash ?? "", button: link });
      if (document.querySelector(".woocommerce-cart-form")) await reloadCartSections();
    } catch {
      location.href = href;
    }
  });
}

let lastFocus: HTMLElement | null = null;
export function openDrawer(): void {
  const drawer = document.getElementById("astra-mobile-cart-drawer");
  if (!drawer) return;
  closeAllOverlays(); // one overlay at a time (docs/contract/search-overlay.md 'Closing overlays')
  lastFocus = document.activeElement as HTMLElement | null;
  drawer.hidden = false;
  requestAnimationFrame(() => drawer.classList.add("active"));
  body().classList.add("ast-mobile-cart-active");
  drawer.querySelector<HTMLElement>(".astra-cart-drawer")?.focus();
}
function closeDrawer(): void {
  const drawer = document.getElementById("astra-mobile-cart-drawer");
  if (!drawer || drawer.hidden) return;
  drawer.classList.remove("active");
  drawer.hidden = true;
  body().classList.remove("ast-mobile-cart-active");
  lastFocus?.focus();
}

function onDocumentClick(e: MouseEvent): void {
  const target = e.target as Element | null;
  if (target?.closest("[data-cart-drawer-close]")) return closeDrawer();
  // On responsive layouts the header cart opens as a flyout instead of navigating.
  const cartLink = target?.closest("#ast-site-header-cart a.cart-contents");
  const breakPoint = Number(window.astra?.break_point ?? SITE_CONFIG.layout.breakPoint);
  if (cartLink && window.innerWidth <= breakPoint && !document.querySelector(".woocommerce-cart-form")) {
    e.preventDefault();
    openDrawer();
  }
}
const onKeydown = (e: KeyboardEvent) => {
  if (e.key === "Escape") closeDrawer();
};

// ---------------------------------------------------------------------------------------------------
// The cart page
// ---------------------------------------------------------------------------------------------------

let crossSellTimer: ReturnType<typeof setTimeout> | undefined;
/** Cross-sell cards get the tallest summary's height plus the padding. */
function equaliseCrossSells(): void {
  const summaries = [...document.querySelectorAll<HTMLElement>(".cross-sells li.product .woocommerce-LoopProduct-link")];
  if (summaries.length < 2) return;
  summaries.forEach((s) => (s.style.minHeight = ""));
  const tallest = Math.max(...summaries.map((s) => s.offsetHeight));
  summaries.forEach((s) => (s.style.minHeight = `${tallest + T.crossSellPaddingPx}px`));
}
const onResize = () => {
  if (crossSellTimer) clearTimeout(crossSellTimer);
  crossSellTimer = setTimeout(equaliseCrossSells, T.crossSellResizeDebounceMs);
};

/** (Re)binds what lives inside the replaceable cart sections. */
function mountCartPage(): void {
  const form = document.querySelector<HTMLFormElement>(".woocommerce-cart-form");
  if (!form) return;
  const update = form.querySelector<HTMLButtonElement>('button[name="update_cart"]');
  if (update) {
    update.disabled = true;
    form.addEventListener("input", (e) => {
      if ((e.target as Element).matches(".qty")) update.disabled = false;
    });
  }
  equaliseCrossSells();
}

function onCartPageChange(e: Event): void {
  const radio = (e.target as Element | null)?.closest<HTMLInputElement>('.cart_totals input.shipping_method[type="radio"]');
  const nonce = window.wc_cart_params?.update_shipping_method_nonce;
  if (!radio || !nonce) return;
  const totals = radio.closest(".cart_totals")!;
  block(totals);
  void enqueue(async () => {
    const data = new URLSearchParams({ security: nonce });
    data.set(radio.name, radio.value);
    try {
      const res = await postForm(endpoint("update_shipping_method"), data);
      const next = res.ok ? htmlToElement(await res.text()) : null;
      if (next) totals.replaceWith(next);
      else unblock(totals);
      emit("updated_shipping_method");
      emit("wc_fragment_refresh");
    } catch {
      unblock(totals);
    }
  });
}

function onCartPageClick(e: MouseEvent): void {
  const target = e.target as Element | null;
  // Custom coupon box.
  const trigger = target?.closest<HTMLElement>("#ast-coupon-trigger");
  if (trigger) {
    const box = document.getElementById("ast-coupon-box");
    trigger.hidden = true;
    trigger.setAttribute("aria-expanded", "true");
    if (box) box.hidden = false;
    document.getElementById("ast-coupon-code")?.focus();
    return;
  }
  if (target?.closest("#ast-apply-coupon")) return void submitCustomCoupon();
  // Free item: toggle the panel, then choose.
  const toggle = target?.closest<HTMLButtonElement>(".awdr-change-product-toggle");
  if (toggle) return void togglePanel(toggle);
  const choice = target?.closest<HTMLButtonElement>(".awdr-select-free-variant-product-toggle");
  if (choice) return void chooseFreeVariant(choice);
}

function onCartPageKeydown(e: KeyboardEvent): void {
  if (e.key === "Enter" && (e.target as Element | null)?.id === "ast-coupon-code") {
    e.preventDefault();
    submitCustomCoupon();
  }
}

function submitCustomCoupon(): void {
  const code = document.querySelector<HTMLInputElement>("#ast-coupon-code")?.value ?? "";
  const field = document.querySelector<HTMLInputElement>('input[name="coupon_code"]');
  const apply = document.querySelector<HTMLButtonElement>('button[name="apply_coupon"]');
  if (!field || !apply) return;
  field.value = code;
  apply.click();
}

function togglePanel(toggle: HTMLButtonElement): void {
  const panel = document.getElementById(toggle.getAttribute("aria-controls") ?? "");
  if (!panel) return;
  const opening = toggle.getAttribute("aria-expanded") !== "true";
  toggle.setAttribute("aria-expanded", String(opening));
  panel.style.overflow = "hidden";
  panel.style.transition = `height ${T.freeVariantPanelSlideMs}ms ease`;
  if (opening) {
    panel.hidden = false;
    const h = panel.scrollHeight;
    panel.style.height = "0px";
    requestAnimationFrame(() => (panel.style.height = `${h}px`));
    setTimeout(() => (panel.style.height = ""), T.freeVariantPanelSlideMs);
  } else {
    panel.style.height = `${panel.scrollHeight}px`;
    requestAnimationFrame(() => (panel.style.height = "0px"));
    setTimeout(() => {
      panel.hidden = true;
      panel.style.height = "";
    }, T.freeVariantPanelSlideMs);
  }
}

async function chooseFreeVariant(choice: HTMLButtonElement): Promise<void> {
  const wrap = choice.closest<HTMLElement>(".awdr-free-product-change");
  if (!wrap) return;
  const data = new URLSearchParams({
    action: "awdr_change_discount_product_in_cart",
    product_id: choice.dataset.product_id ?? "",
    rule_unique_id: wrap.dataset.rule_unique_id ?? "",
    parent_id: wrap.dataset.parent_id ?? "0",
    awdr_nonce: wrap.dataset.awdr_nonce ?? "",
  });
  try {
    const res = await postForm(window.wc_add_to_cart_params?.ajax_url ?? "/wp-admin/admin-ajax.php", data);
    const json = (await res.json()) as { success?: boolean; data?: unknown };
    if (json.success && json.data == 1) {
      const update = document.querySelector<HTMLButtonElement>('button[name="update_cart"]');
      if (update) {
        update.disabled = false;
        update.click();
      }
    }
  } catch {
    // The spec: a failed change is ignored.
  }
}

// ---------------------------------------------------------------------------------------------------

/** Wires everything; returns a function that unwires it. */
export function mountCart(): () => void {
  syncMiniCartVisibility();
  liveRegion();
  const stopBridge = mountJQueryBridge();
  const stopCache = fragmentsCache();
  document.addEventListener("click", onAddButtonClick);
  document.addEventListener("click", onRemoveClick);
  document.addEventListener("click", onDocumentClick);
  document.addEventListener("click", onCartPageClick);
  document.addEventListener("change", onCartPageChange);
  document.addEventListener("keydown", onKeydown);
  document.addEventListener("keydown", onCartPageKeydown);
  document.addEventListener("submit", onProductFormSubmit);
  const stopOverlays = onCloseAllOverlays(closeDrawer);
  window.addEventListener("resize", onResize);
  const onAdded = () => {
    syncMiniCartVisibility();
    if (window.astra?.add_to_cart_options_single === "slide_in_cart" && window.innerWidth <= Number(window.astra.break_point)) openDrawer();
  };
  body().addEventListener("added_to_cart", onAdded);
  mountCartPage();
  return () => {
    stopCache?.();
    stopBridge();
    stopOverlays();
    document.removeEventListener("click", onAddButtonClick);
    document.removeEventListener("click", onRemoveClick);
    document.removeEventListener("click", onDocumentClick);
    document.removeEventListener("click", onCartPageClick);
    document.removeEventListener("change", onCartPageChange);
    document.removeEventListener("keydown", onKeydown);
    document.removeEventListener("keydown", onCartPageKeydown);
    document.removeEventListener("submit", onProductFormSubmit);
    window.removeEventListener("resize", onResize);
    body().removeEventListener("added_to_cart", onAdded);
  };
}
