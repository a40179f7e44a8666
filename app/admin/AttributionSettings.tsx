/**
 * Settings › Order attribution (docs/contract/admin.md 'Settings'): `shop/v1/settings/attribution`, sourcebuster's
 * options as the storefront passes them (docs/contract/storefront.md §9 'Attribution (site configuration)'): cookie
 * lifetime and session length, custom campaign parameters, custom referral sources and search engines as editable
 * lists, and the promo code. The API's schema is the judge; its refusals are shown at the field (a row's host too).
 */
import { Button, CheckboxControl, TextControl } from "@wordpress/components";
import { SectionForm, type SettingsSection } from "./settings-section.tsx";
import { numberOrTyped } from "./settings-fields.ts";

interface Referral {
  host: string;
  medium?: string;
  display?: string;
}
interface Organic {
  host: string;
  param: string;
  display?: string;
}
interface Attribution extends Record<string, unknown> {
  lifetimeMonths: number;
  sessionMinutes: number;
  base64: boolean;
  allowTracking: boolean;
  timezoneOffsetHours: number;
  campaignParam: string;
  termParam: string;
  contentParam: string;
  referrals: Referral[];
  organics: Organic[];
  promocode: { enabled: boolean; min: number; max: number };
}

/** Optional texts left empty are not sent (the storefront then uses its own: medium "referral", the host as the name). */
const withoutEmpty = <R extends object>(row: R): R => Object.fromEntries(Object.entries(row).filter(([, v]) => v !== "" && v !== undefined)) as R;
const prepare = (a: Attribution): Attribution => ({
  ...a,
  referrals: a.referrals.map((r) => withoutEmpty({ ...r, host: r.host.trim() })),
  organics: a.organics.map((o) => withoutEmpty({ ...o, host: o.host.trim() })),
});

function ListError({ s, path }: { s: SettingsSection<Attribution>; path: string }) {
  const e = s.err(path);
  return e.help ? (
    <p className="admin-settings-list-error" role="alert">
      {e.help}
    </p>
  ) : null;
}

function Referrals({ s }: { s: SettingsSection<Attribution> }) {
  const rows = s.form.referrals;
  const change = (i: number, patch: Partial<Referral>) =>
    s.set(
      "referrals",
      rows.map((r, j) => (j === i ? { ...r, ...patch } : r)),
    );
  return (
    <fieldset className="admin-fieldset">
      <legend>Custom referral sources</legend>
      <p className="admin-hint">Visitors arriving from these hosts (and their subdomains) are recorded under your own name and medium.</p>
      <ListError s={s} path="referrals" />
      {rows.length === 0 ? <p className="admin-hint">None: referrals are named by their host.</p> : null}
      <ul className="admin-settings-rows">
        {rows.map((r, i) => (
          <li key={i} className="admin-settings-row">
            <TextControl
              __next40pxDefaultSize
              label={`Referral ${i + 1}: host`}
              value={r.host}
              onChange={(host) => change(i, { host })}
              {...s.err(`referrals[${i}].host`)}
            />
            <TextControl
              __next40pxDefaultSize
              label={`Referral ${i + 1}: medium`}
              placeholder="referral"
              value={r.medium ?? ""}
              onChange={(medium) => change(i, { medium })}
              {...s.err(`referrals[${i}].medium`)}
            />
            <TextControl
              __next40pxDefaultSize
              label={`Referral ${i + 1}: shown as`}
              value={r.display ?? ""}
              onChange={(display) => change(i, { display })}
              {...s.err(`referrals[${i}].display`)}
            />
            <Button
              variant="secondary"
              isDestructive
              onClick={() =>
                s.set(
                  "referrals",
                  rows.filter((_, j) => j !== i),
                )
              }
            >
              Remove referral {i + 1}
            </Button>
          </li>
        ))}
      </ul>
      <Button variant="secondary" onClick={() => s.set("referrals", [...rows, { host: "", medium: "", display: "" }])}>
        Add referral source
      </Button>
    </fieldset>
  );
}

function Organics({ s }: { s: SettingsSection<Attribution> }) {
  const rows = s.form.organics;
  const change = (i: number, patch: Partial<Organic>) =>
    s.set(
      "organics",
      rows.map((r, j) => (j === i ? { ...r, ...patch } : r)),
    );
  return (
    <fieldset className="admin-fieldset">
      <legend>Custom search engines</legend>
      <p className="admin-hint">Referrers on these hosts carrying the search parameter count as organic traffic.</p>
      <ListError s={s} path="organics" />
      {rows.length === 0 ? <p className="admin-hint">None: only the well-known search engines count as organic.</p> : null}
      <ul className="admin-settings-rows">
        {rows.map((r, i) => (
          <li key={i} className="admin-settings-row">
            <TextControl
              __next40pxDefaultSize
              label={`Search engine ${i + 1}: host`}
              value={r.host}
              onChange={(host) => change(i, { host })}
              {...s.err(`organics[${i}].host`)}
            />
            <TextControl
              __next40pxDefaultSize
              label={`Search engine ${i + 1}: search parameter`}
              value={r.param}
              onChange={(param) => change(i, { param })}
              {...s.err(`organics[${i}].param`)}
            />
            <TextControl
              __next40pxDefaultSize
              label={`Search engine ${i + 1}: shown as`}
              value={r.display ?? ""}
              onChange={(display) => change(i, { display })}
              {...s.err(`organics[${i}].display`)}
            />
            <Button
              variant="secondary"
              isDestructive
              onClick={() =>
                s.set(
                  "organics",
                  rows.filter((_, j) => j !== i),
                )
              }
            >
              Remove search engine {i + 1}
            </Button>
          </li>
        ))}
      </ul>
      <Button variant="secondary" onClick={() => s.set("organics", [...rows, { host: "", param: "q", display: "" }])}>
        Add search engine
      </Button>
    </fieldset>
  );
}

export default function AttributionSettings({ onDirty }: { onDirty: (dirty: boolean) => void }) {
  return (
    <SectionForm<Attribution> section="attribution" legend="Order attribution" onDirty={onDirty} prepare={prepare}>
      {(s) => {
        const f = s.form;
        const num = (key: "lifetimeMonths" | "sessionMinutes" | "timezoneOffsetHours") => ({
          type: "number" as const,
          value: String(f[key]),
          onChange: (v: string) => s.set(key, numberOrTyped(v)),
          ...s.err(key),
        });
        return (
          <>
            <fieldset className="admin-fieldset">
              <legend>Tracking</legend>
              <CheckboxControl
                label="Record where orders come from"
                help="Off: no attribution cookie is written and orders carry no source."
                checked={f.allowTracking}
                onChange={(v) => s.set("allowTracking", v)}
              />
              <div className="admin-row">
                <TextControl __next40pxDefaultSize label="Cookie lifetime (months)" step="any" {...num("lifetimeMonths")} />
                <TextControl __next40pxDefaultSize label="Session length (minutes)" {...num("sessionMinutes")} />
                <TextControl __next40pxDefaultSize label="Time zone offset (hours from UTC)" step="any" {...num("timezoneOffsetHours")} />
              </div>
              <CheckboxControl label="Store the cookies Base64-encoded" checked={f.base64} onChange={(v) => s.set("base64", v)} />
            </fieldset>
            <fieldset className="admin-fieldset">
              <legend>Custom campaign parameters</legend>
              <p className="admin-hint">Query parameters that also mark a campaign visit, besides utm_*. Empty: none.</p>
              <div className="admin-row">
                <TextControl
                  __next40pxDefaultSize
                  label="Campaign parameter"
                  value={f.campaignParam}
                  onChange={(v) => s.set("campaignParam", v)}
                  {...s.err("campaignParam")}
                />
                <TextControl __next40pxDefaultSize label="Term parameter" value={f.termParam} onChange={(v) => s.set("termParam", v)} {...s.err("termParam")} />
                <TextControl
                  __next40pxDefaultSize
                  label="Content parameter"
                  value={f.contentParam}
                  onChange={(v) => s.set("contentParam", v)}
                  {...s.err("contentParam")}
                />
              </div>
            </fieldset>
            <Referrals s={s} />
            <Organics s={s} />
            <fieldset className="admin-fieldset">
              <legend>Promo code</legend>
              <CheckboxControl
                label="Give each visitor a random promo code (sbjs_promo)"
                checked={f.promocode.enabled}
                onChange={(enabled) => s.set("promocode", { ...f.promocode, enabled })}
              />
              <div className="admin-row">
                <TextControl
                  __next40pxDefaultSize
                  type="number"
                  label="Promo code from"
                  value={String(f.promocode.min)}
                  onChange={(v) => s.set("promocode", { ...f.promocode, min: numberOrTyped(v) })}
                  {...s.err("promocode.min")}
                />
                <TextControl
                  __next40pxDefaultSize
                  type="number"
                  label="Promo code up to"
                  value={String(f.promocode.max)}
                  onChange={(v) => s.set("promocode", { ...f.promocode, max: numberOrTyped(v) })}
                  {...s.err("promocode.max")}
                />
              </div>
              <ListError s={s} path="promocode" />
            </fieldset>
          </>
        );
      }}
    </SectionForm>
  );
}
