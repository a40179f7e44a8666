/**
 * Add / Edit popup (docs/contract/admin.md 'Popup'): every setting `shop/v1/popups` stores (docs/contract/storefront.md
 * §3 'Popup settings') in panels — content, triggers, pages and cart, visitors, frequency, schedule, display — with a
 * live preview drawn by the storefront's own dialog (PopupPreview.tsx) and the popup's figures. An edit is saved with
 * `PUT` and the version read as `If-Match`, so a save over someone else's is refused (412 `rest_popup_changed`); the
 * API's refusal is shown at the field it names, which takes the focus; leaving with unsaved changes asks first.
 */
import { useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from "react";
import { Button, CheckboxControl, Notice, SelectControl, Spinner, TextControl, TextareaControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "./popups.css";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { useCatalogChoices } from "./catalog-choices.ts";
import { useUnsavedWarning } from "./use-unsaved-warning.ts";
import { useFocusFirstInvalid, SaveNotice, type SaveNote } from "./SaveNotice.tsx";
import { IdTokens } from "./CouponScreen.tsx";
import { shopMoney } from "./orders-shared.ts";
import { PopupPreview } from "./PopupPreview.tsx";
import {
  fieldMessage,
  fieldOfPath,
  formOf,
  previewOf,
  settingsOf,
  type PageRuleForm,
  type PopupForm,
  type PopupStatsRow,
  type RestPopup,
} from "./popup-form.ts";
import { BROWSERS, DEVICES, ENTRANCE_ANIMATIONS, EXIT_ANIMATIONS, IMPRESSION_PERIODS, PAGE_KINDS, ROLES, SOURCES } from "../../core/domain/popups/settings.ts";

const PAGE_NAMES: Record<(typeof PAGE_KINDS)[number], string> = {
  general: "Entire site",
  shop: "Shop page",
  category: "Product category",
  product: "Product",
  cart: "Cart",
  checkout: "Checkout",
};
const ANIMATION_NAMES: Record<string, string> = {
  none: "None",
  fadeIn: "Fade in",
  zoomIn: "Zoom in",
  slideInUp: "Slide in up",
  slideInDown: "Slide in down",
  fadeOut: "Fade out",
  zoomOut: "Zoom out",
  slideOutDown: "Slide out down",
  slideOutUp: "Slide out up",
};
const PERIOD_NAMES: Record<string, string> = { "": "Ever", day: "Per day", week: "Per week", month: "Per month", session: "Per session" };
const ROLE_NAMES: Record<string, string> = { customer: "Customer", shop_manager: "Shop manager", administrator: "Administrator" };
const SOURCE_NAMES: Record<string, string> = { internal: "This shop (internal links)", external: "Other sites", search: "Search engines" };
const BROWSER_NAMES: Record<string, string> = { chrome: "Chrome", edge: "Edge", firefox: "Firefox", safari: "Safari", opera: "Opera", ie: "Internet Explorer" };
const COUNT_OPTIONS: { value: string; label: string }[] = [
  { value: "", label: "When closed" },
  { value: "close", label: "When closed (explicitly)" },
  { value: "open", label: "When shown" },
];
const label = (names: Record<string, string>) => (v: string) => ({ value: v, label: names[v] ?? v });

const EMPTY = formOf(null);
const FORM_KEYS = new Set(Object.keys(EMPTY));

type Load =
  | { state: "loading" }
  | { state: "error"; error: RestError }
  | { state: "ready"; popup: RestPopup | null; version: string; saved: PopupForm; stats: PopupStatsRow | null };

/** A refusal's `data.params` as the form's fields and messages; a field the form does not show stays in the summary. */
function refusal(e: RestError): { errors: Record<string, string>; note: SaveNote } {
  if (e.code === "rest_popup_changed") return { errors: {}, note: { status: "error", text: e.message, conflict: true } };
  const errors: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const [path, message] of Object.entries(e.data?.params ?? {})) {
    const field = fieldOfPath(path);
    if (FORM_KEYS.has(field) || field.startsWith("pages.")) errors[field] = fieldMessage(path, message);
    else unplaced.push(message);
  }
  const text = unplaced.length
    ? `The popup was not saved: ${unplaced.join("; ")}.`
    : Object.keys(errors).length
      ? "The popup was not saved: a field needs correcting."
      : e.message;
  return { errors, note: { status: "error", text } };
}

export default function PopupScreen({ id }: { id: number | null }) {
  const [load, setLoad] = useState<Load>(id === null ? { state: "ready", popup: null, version: "", saved: EMPTY, stats: null } : { state: "loading" });
  const [form, setForm] = useState<PopupForm>(EMPTY);
  const { products, categories } = useCatalogChoices();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const [notice, setNotice] = useState<SaveNote>(() =>
    new URLSearchParams(window.location.search).get("saved") === "created" ? { status: "success", text: "Popup created." } : null,
  );
  const [saving, setSaving] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const noticeId = useId();

  useEffect(() => {
    if (id === null) return;
    let live = true;
    Promise.all([
      getWithHeaders<RestPopup>(`/shop/v1/popups/${id}`),
      getWithHeaders<PopupStatsRow[]>("/shop/v1/popups/stats").catch(() => ({ body: [] as PopupStatsRow[] })),
    ]).then(
      ([{ body, headers }, stats]) => {
        if (!live) return;
        const saved = formOf(body);
        setLoad({ state: "ready", popup: body, version: headers.get("ETag") ?? "", saved, stats: stats.body.find((s) => s.id === id) ?? null });
        setForm(saved);
        setErrors({});
      },
      (error: RestError) => live && setLoad({ state: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [id, reloads]);

  const dirty = useMemo(
    () => load.state === "ready" && !leaveTo && JSON.stringify(settingsOf(load.saved)) !== JSON.stringify(settingsOf(form)),
    [load, form, leaveTo],
  );
  useUnsavedWarning(dirty);
  useEffect(() => {
    if (leaveTo) window.location.assign(leaveTo);
  }, [leaveTo]);
  const preview = useMemo(() => previewOf(form, id ?? 0), [form, id]);

  if (load.state === "loading") {
    return (
      <p role="status">
        <Spinner /> Loading the popup…
      </p>
    );
  }
  if (load.state === "error") {
    return (
      <Notice status="error" isDismissible={false}>
        {load.error.code === "rest_popup_invalid_id" ? "This popup doesn’t exist. Perhaps it was deleted?" : load.error.message}
      </Notice>
    );
  }
  const f = form;
  const set = <K extends keyof PopupForm>(key: K, value: PopupForm[K]) => {
    setForm((old) => ({ ...old, [key]: value }));
    if (errors[key]) setErrors(({ [key]: _, ...rest }) => rest);
  };
  const err = (key: string) => (errors[key] ? { help: <span className="admin-field-error">{errors[key]}</span>, "aria-invalid": true as const } : {});
  const text = (key: keyof PopupForm, fieldLabel: string, extra: { help?: string; placeholder?: string } = {}) => (
    <TextControl
      __next40pxDefaultSize
      label={fieldLabel}
      value={f[key] as string}
      onChange={(v) => set(key, v as never)}
      placeholder={extra.placeholder}
      help={errors[key] ? undefined : extra.help}
      {...err(key)}
    />
  );
  const number = (key: keyof PopupForm, fieldLabel: string, extra: { help?: string; min?: number; step?: number | "any" } = {}) => (
    <TextControl
      __next40pxDefaultSize
      type="number"
      min={extra.min ?? 0}
      step={extra.step ?? "any"}
      label={fieldLabel}
      value={f[key] as string}
      onChange={(v) => set(key, v as never)}
      help={errors[key] ? undefined : extra.help}
      {...err(key)}
    />
  );
  const check = (key: keyof PopupForm, checkLabel: string, help?: string) => (
    <CheckboxControl label={checkLabel} help={help} checked={f[key] as boolean} onChange={(v) => set(key, v as never)} />
  );
  /** A switch with the settings it turns on, shown only while it is on. */
  const option = (key: keyof PopupForm, checkLabel: string, body: ReactNode, help?: string) => (
    <div className="admin-popup-option">
      {check(key, checkLabel, help)}
      {f[key] ? <div className="admin-popup-suboptions">{body}</div> : null}
    </div>
  );
  /** Several choices of one list (devices, sources, roles, browsers); its error marks the first box. */
  const choices = (
    key: "devices" | "sources" | "logged_in_roles" | "browsers_options",
    legend: string,
    values: readonly string[],
    names: Record<string, string>,
  ) => (
    <fieldset className="admin-popup-choices">
      <legend>{legend}</legend>
      {values.map((v, i) => (
        <CheckboxControl
          key={v}
          label={names[v] ?? v}
          checked={f[key].includes(v)}
          aria-invalid={i === 0 && errors[key] ? true : undefined}
          onChange={(on) => set(key, on ? [...f[key], v] : f[key].filter((x) => x !== v))}
        />
      ))}
      {errors[key] ? <p className="admin-field-error">{errors[key]}</p> : null}
    </fieldset>
  );
  const setRule = (i: number, rule: PageRuleForm | null) => {
    setForm((old) => ({ ...old, pages: rule ? old.pages.map((r, j) => (j === i ? rule : r)) : old.pages.filter((_, j) => j !== i) }));
    setErrors((old) => Object.fromEntries(Object.entries(old).filter(([k]) => !k.startsWith("pages"))));
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (load.state !== "ready" || saving) return;
    if (id !== null && !dirty) {
      setNotice({ status: "warning", text: "Nothing to save: no field was changed." });
      return;
    }
    setSaving(true);
    setNotice(null);
    try {
      if (id === null) {
        const { body } = await send<RestPopup>("/shop/v1/popups", "POST", settingsOf(f));
        setLoad({ state: "ready", popup: body, version: "", saved: formOf(body), stats: null });
        setLeaveTo(`/wp-admin/popups/${body.id}/?saved=created`);
        return;
      }
      const { body, headers } = await send<RestPopup>(`/shop/v1/popups/${id}`, "PUT", settingsOf(f), { "If-Match": load.version });
      const saved = formOf(body);
      setLoad({ ...load, popup: body, version: headers.get("ETag") ?? "", saved });
      setForm(saved);
      setErrors({});
      setNotice({ status: "success", text: body.enabled ? "Popup updated. Visitors see it from their next page." : "Popup updated. It is switched off." });
    } catch (e) {
      const refused = refusal(e as RestError);
      setErrors(refused.errors);
      if (Object.keys(refused.errors).length) focusFirstInvalid();
      setNotice(refused.note);
    } finally {
      setSaving(false);
    }
  }

  async function remove() {
    if (id === null || load.state !== "ready") return;
    setSaving(true);
    try {
      await send(`/shop/v1/popups/${id}`, "DELETE", undefined);
      setLeaveTo(`/wp-admin/popups/?deleted=${encodeURIComponent(load.popup?.title ?? "")}`);
    } catch (e) {
      setNotice({ status: "error", text: (e as RestError).message });
      setConfirmDelete(false);
      setSaving(false);
    }
  }

  const s = load.stats;
  return (
    <form className="admin-popup-edit" onSubmit={save} noValidate aria-describedby={notice ? noticeId : undefined}>
      <SaveNotice
        id={noticeId}
        note={notice}
        reloadLabel="Reload the popup (your changes are discarded)"
        onReload={() => {
          setLoad({ state: "loading" });
          setNotice(null);
          setReloads((n) => n + 1);
        }}
      />
      <div className="admin-popup-columns">
        <div className="admin-popup-main">
          {text("title", "Title", { help: "For you: the list and the figures name the popup by it. Visitors see the heading." })}
          <fieldset className="admin-fieldset">
            <legend>Content</legend>
            {text("heading", "Heading")}
            <TextareaControl
              label="Text"
              rows={4}
              help={errors.text ? undefined : "Paragraphs: leave an empty line between two (at most 10)."}
              value={f.text}
              onChange={(v) => set("text", v)}
              {...err("text")}
            />
            {option(
              "image_on",
              "Image",
              <>
                {text("image_src", "Image address", { help: "A path on this shop (/…) or an https:// address." })}
                {text("image_alt", "Image description (alt text)")}
              </>,
            )}
            {option(
              "cta_on",
              "Button",
              <div className="admin-row">
                {text("cta_label", "Button text")}
                {text("cta_href", "Button link", { help: "A path (/shop/), an https:// address or a link action (#popup:close)." })}
              </div>,
            )}
            {option(
              "signup_on",
              "Newsletter sign-up form",
              <div className="admin-row">
                {text("signup_label", "Field label")}
                {text("signup_button", "Sign-up button text")}
              </div>,
              "An e-mail field that subscribes the visitor (the shop's newsletter list).",
            )}
            {option(
              "dismiss_on",
              "“No thanks” link",
              <>
                {text("dismiss_label", "Link text")}
                {check("dismiss_do_not_show_again", "Do not show this popup again to a visitor who follows it")}
              </>,
            )}
          </fieldset>

          <fieldset className="admin-fieldset">
            <legend>Triggers</legend>
            <p className="admin-hint">When the popup opens. Without any, it opens only from a link (#popup:open:{id ?? "ID"}) or the selector below.</p>
            {option("page_load_on", "On page load", number("page_load_delay", "Delay (seconds)"))}
            {option(
              "scrolling_on",
              "On scroll",
              <div className="admin-row">
                <SelectControl
                  __next40pxDefaultSize
                  label="Direction"
                  value={f.scrolling_direction}
                  options={[
                    { value: "down", label: "Down" },
                    { value: "up", label: "Up" },
                  ]}
                  onChange={(v) => set("scrolling_direction", v as PopupForm["scrolling_direction"])}
                />
                {number("scrolling_offset", "Within (% of the page)", { min: 1 })}
              </div>,
            )}
            {option("scrolling_to_on", "On scroll to element", text("scrolling_to_selector", "Element (CSS selector)", { placeholder: "#reviews" }))}
            {option("click_on", "On clicks", number("click_times", "Number of clicks", { min: 1, step: 1 }))}
            {option("inactivity_on", "After inactivity", number("inactivity_time", "Seconds without activity"))}
            {option("exit_intent_on", "On exit intent", null, "When the pointer leaves the page towards the browser's tabs.")}
            {option("adblock_on", "On ad-block detection", number("adblock_delay", "Delay (seconds)"))}
            {text("open_selector", "Open on a click of (CSS selector)", { help: "Optional, e.g. a[href='#size-guide']. Opens whatever the frequency says." })}
          </fieldset>

          <fieldset className="admin-fieldset">
            <legend>Pages and cart</legend>
            <p className="admin-hint">Where the popup may appear. No rule: the entire site. An exclude rule wins over an include rule.</p>
            {f.pages.map((rule, i) => (
              <div className="admin-popup-rule" role="group" aria-label={`Rule ${i + 1}`} key={i}>
                <SelectControl
                  __next40pxDefaultSize
                  label="Include or exclude"
                  value={rule.type}
                  options={[
                    { value: "include", label: "Include" },
                    { value: "exclude", label: "Exclude" },
                  ]}
                  onChange={(v) => setRule(i, { ...rule, type: v as PageRuleForm["type"] })}
                />
                <SelectControl
                  __next40pxDefaultSize
                  label="Pages"
                  value={rule.name}
                  options={PAGE_KINDS.map(label(PAGE_NAMES))}
                  onChange={(v) => setRule(i, { ...rule, name: v as PageRuleForm["name"], id: "" })}
                />
                {rule.name === "category" || rule.name === "product" ? (
                  <SelectControl
                    __next40pxDefaultSize
                    label={rule.name === "category" ? "Which category" : "Which product"}
                    value={rule.id}
                    options={[
                      { value: "", label: rule.name === "category" ? "Every category" : "Every product" },
                      ...(rule.name === "category" ? categories : products).map((o) => ({ value: String(o.id), label: o.name })),
                      ...(rule.id && !(rule.name === "category" ? categories : products).some((o) => String(o.id) === rule.id)
                        ? [{ value: rule.id, label: `#${rule.id}` }]
                        : []),
                    ]}
                    onChange={(v) => setRule(i, { ...rule, id: v })}
                    {...err(`pages.${i}.id`)}
                  />
                ) : null}
                <Button variant="secondary" isDestructive onClick={() => setRule(i, null)} __next40pxDefaultSize aria-label={`Remove rule ${i + 1}`}>
                  Remove
                </Button>
              </div>
            ))}
            {errors.pages ? <p className="admin-field-error">{errors.pages}</p> : null}
            <p>
              <Button variant="secondary" onClick={() => set("pages", [...f.pages, { type: "include", name: "general", id: "" }])} __next40pxDefaultSize>
                Add a page rule
              </Button>
            </p>
            {option(
              "cart_on",
              "Only with a cart that matches",
              <>
                <div className="admin-row">
                  {number("subtotal_above", "Subtotal above", { help: "Empty: no minimum." })}
                  {number("subtotal_below", "Subtotal below", { help: "Empty: no maximum." })}
                </div>
                <IdTokens
                  label="Contains one of these products"
                  options={products}
                  value={f.contains_products}
                  onChange={(v) => set("contains_products", v)}
                  error={errors.contains_products}
                />
                <IdTokens
                  label="Contains a product of these categories"
                  options={categories}
                  value={f.contains_categories}
                  onChange={(v) => set("contains_categories", v)}
                  error={errors.contains_categories}
                />
              </>,
            )}
          </fieldset>

          <fieldset className="admin-fieldset">
            <legend>Visitors</legend>
            {option(
              "logged_in_on",
              "Hide from signed-in visitors",
              <>
                <SelectControl
                  __next40pxDefaultSize
                  label="Which of them"
                  value={f.logged_in_users}
                  options={[
                    { value: "all", label: "All signed-in visitors" },
                    { value: "custom", label: "Those with a role below" },
                  ]}
                  onChange={(v) => set("logged_in_users", v as PopupForm["logged_in_users"])}
                />
                {f.logged_in_users === "custom" ? choices("logged_in_roles", "Roles", ROLES, ROLE_NAMES) : null}
              </>,
            )}
            {option("devices_on", "Only on some devices", choices("devices", "Devices", DEVICES, { desktop: "Desktop", tablet: "Tablet", mobile: "Mobile" }))}
            {option(
              "browsers_on",
              "Only in some browsers",
              <>
                <SelectControl
                  __next40pxDefaultSize
                  label="Browsers"
                  value={f.browsers_users}
                  options={[
                    { value: "all", label: "All browsers" },
                    { value: "custom", label: "Those below" },
                  ]}
                  onChange={(v) => set("browsers_users", v as PopupForm["browsers_users"])}
                />
                {f.browsers_users === "custom" ? choices("browsers_options", "Which browsers", BROWSERS, BROWSER_NAMES) : null}
              </>,
            )}
            {option("sources_on", "Only for visitors arriving from", choices("sources", "Arriving from", SOURCES, SOURCE_NAMES))}
            {option(
              "url_on",
              "Depending on the address they came from",
              <div className="admin-row">
                <SelectControl
                  __next40pxDefaultSize
                  label="Rule"
                  value={f.url_action}
                  options={[
                    { value: "show", label: "Show if it contains" },
                    { value: "hide", label: "Hide if it contains" },
                    { value: "regex", label: "Show if it matches (regular expression)" },
                  ]}
                  onChange={(v) => set("url_action", v as PopupForm["url_action"])}
                />
                {text("url_url", "Address text")}
              </div>,
            )}
          </fieldset>

          <fieldset className="admin-fieldset">
            <legend>Frequency</legend>
            {option("page_views_on", "After a number of page views", number("page_views", "Page views", { min: 1, step: 1 }))}
            {option("sessions_on", "After a number of visits", number("sessions", "Visits (sessions)", { min: 1, step: 1 }))}
            {option(
              "times_on",
              "At most a number of times",
              <div className="admin-row">
                {number("times_times", "Times", { min: 1, step: 1 })}
                <SelectControl
                  __next40pxDefaultSize
                  label="Period"
                  value={f.times_period}
                  options={IMPRESSION_PERIODS.map(label(PERIOD_NAMES))}
                  onChange={(v) => set("times_period", v)}
                />
                <SelectControl __next40pxDefaultSize label="Counted" value={f.times_count} options={COUNT_OPTIONS} onChange={(v) => set("times_count", v)} />
              </div>,
            )}
          </fieldset>

          <fieldset className="admin-fieldset">
            <legend>Schedule</legend>
            <p className="admin-hint">In the shop’s timezone. Empty: no limit.</p>
            <div className="admin-row">
              <TextControl
                __next40pxDefaultSize
                type="datetime-local"
                label="Show from"
                value={f.schedule_start}
                onChange={(v) => set("schedule_start", v)}
                {...err("schedule_start")}
              />
              <TextControl
                __next40pxDefaultSize
                type="datetime-local"
                label="Show until"
                value={f.schedule_end}
                onChange={(v) => set("schedule_end", v)}
                {...err("schedule_end")}
              />
            </div>
          </fieldset>

          <fieldset className="admin-fieldset">
            <legend>Display</legend>
            <div className="admin-row">
              {number("width", "Width (px)", { min: 200, step: 1, help: "200 to 1200." })}
              <SelectControl
                __next40pxDefaultSize
                label="Close button"
                value={f.close_button_position}
                options={[
                  { value: "inside", label: "Inside the popup" },
                  { value: "outside", label: "Outside, above it" },
                ]}
                onChange={(v) => set("close_button_position", v as PopupForm["close_button_position"])}
              />
            </div>
            <div className="admin-row">
              {number("close_button_delay", "Show the close button after (seconds)")}
              {number("close_automatically", "Close automatically after (seconds)", { help: "0: stays open." })}
            </div>
            <div className="admin-row">
              <SelectControl
                __next40pxDefaultSize
                label="Entrance animation"
                value={f.entrance_animation}
                options={ENTRANCE_ANIMATIONS.map(label(ANIMATION_NAMES))}
                onChange={(v) => set("entrance_animation", v)}
              />
              <SelectControl
                __next40pxDefaultSize
                label="Exit animation"
                value={f.exit_animation}
                options={EXIT_ANIMATIONS.map(label(ANIMATION_NAMES))}
                onChange={(v) => set("exit_animation", v)}
              />
              {number("entrance_animation_duration", "Animation duration (seconds)")}
            </div>
            {check("avoid_multiple_popups", "Not when another popup already opened on the page")}
            {check("prevent_close_on_background_click", "Do not close on a click outside the popup")}
            {check("prevent_close_on_esc_key", "Do not close with the Escape key")}
            {check("prevent_scroll", "Stop the page scrolling while open")}
            {check("a11y_navigation", "Keyboard navigation (focus moves into the popup and stays there)")}
          </fieldset>
        </div>

        <div className="admin-popup-side">
          <fieldset className="admin-fieldset">
            <legend>{id === null ? "Publish" : "Popup"}</legend>
            {check("enabled", "Enabled (shown on the storefront)")}
            <Button variant="primary" type="submit" isBusy={saving} aria-disabled={saving} __next40pxDefaultSize>
              {saving ? "Saving…" : id === null ? "Publish" : "Update"}
            </Button>
            {dirty ? <p className="admin-hint">Unsaved changes.</p> : null}
            {id !== null ? (
              confirmDelete ? (
                <div className="admin-confirm" role="group" aria-label="Confirm deletion">
                  <p>Delete the popup “{load.popup?.title}” and its figures for good?</p>
                  <Button variant="primary" isDestructive onClick={remove} __next40pxDefaultSize>
                    Delete permanently
                  </Button>{" "}
                  <Button variant="tertiary" onClick={() => setConfirmDelete(false)} __next40pxDefaultSize>
                    Cancel
                  </Button>
                </div>
              ) : (
                <p>
                  <Button variant="link" isDestructive onClick={() => setConfirmDelete(true)}>
                    Delete popup
                  </Button>
                </p>
              )
            ) : null}
          </fieldset>
          {id !== null ? (
            <fieldset className="admin-fieldset">
              <legend>Figures</legend>
              <dl className="admin-details">
                <dt>Impressions</dt>
                <dd>{s?.impressions ?? 0}</dd>
                <dt>Closed</dt>
                <dd>{s?.closes ?? 0}</dd>
                <dt>“Don’t show again”</dt>
                <dd>{s?.do_not_show_again ?? 0}</dd>
                <dt>Conversions</dt>
                <dd>{s?.conversions ?? 0}</dd>
                <dt>Conversion rate</dt>
                <dd>{Math.round((s?.conversion_rate ?? 0) * 1000) / 10}%</dd>
                <dt>Revenue</dt>
                <dd>{shopMoney(s?.revenue ?? 0)}</dd>
              </dl>
            </fieldset>
          ) : null}
          <PopupPreview popup={preview} caption={f.enabled ? "Preview" : "Preview (the popup is switched off)"} />
          <p>
            <a href="/wp-admin/popups/">All popups</a>
          </p>
        </div>
      </div>
    </form>
  );
}
