/**
 * The Order screen's "Downloadable product permissions" box (WooCommerce's, docs/contract/admin.md 'Order'): the
 * order's permissions from `GET shop/v1/orders/{id}/downloads`, each with its file, downloads used and remaining,
 * expiry and the customer's link; "Downloads remaining" and "Access expires" saved per permission (`PUT`, which also
 * resets a used-up one), "Revoke access" after a confirmation (`DELETE`), and "Grant access" to a file of one of the
 * shop's downloadable products (`GET wc/v3/products?downloadable=true`, then `POST`). Results are announced in the
 * screen's live region above the order (a status, or an alert for a refusal); a refused field says why under it and
 * takes the focus.
 */
import { useEffect, useRef, useState } from "react";
import { Button, ComboboxControl, TextControl } from "@wordpress/components";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { LoadError, type ActionResult } from "./Status.tsx";
import { useComboboxControls } from "./SaveNotice.tsx";

export interface DownloadPermission {
  id: number;
  product_id: number;
  product_name: string;
  download_id: string;
  download_name: string;
  file_exists: boolean;
  download_limit: number;
  downloads_remaining: number | null;
  download_count: number;
  access_granted: string;
  access_expires: string | null;
  /** Why the link refuses now, or null when it works. */
  refusal: "expired" | "used-up" | null;
  download_url: string;
}

interface DownloadableProduct {
  id: number;
  name: string;
  downloads: { id: string; name: string }[];
}

type Load =
  { state: "loading" } | { state: "error"; error: RestError } | { state: "ready"; permissions: DownloadPermission[]; products: DownloadableProduct[] };

const when = (iso: string) => iso.replace("T", " ").slice(0, 16);
const times = (n: number) => `${n} ${n === 1 ? "time" : "times"}`;
const fileName = (p: DownloadPermission) => p.download_name || "(a file the product no longer has)";
const paramsOf = (e: RestError) => e.data?.params ?? {};

function PermissionItem(props: {
  orderId: number;
  permission: DownloadPermission;
  onResult: (r: ActionResult) => void;
  onChanged: () => void;
  onRevoked: () => void;
}) {
  const p = props.permission;
  const savedRemaining = p.downloads_remaining === null ? "" : String(p.downloads_remaining);
  const savedExpires = p.access_expires?.slice(0, 10) ?? "";
  const [remaining, setRemaining] = useState(savedRemaining);
  const [expires, setExpires] = useState(savedExpires);
  const [errors, setErrors] = useState<{ remaining?: string; expires?: string }>({});
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const group = useRef<HTMLFieldSetElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  // The saved values, once read again, are what the fields show (the item stays mounted, so focus stays put).
  const [shown, setShown] = useState({ savedRemaining, savedExpires });
  if (shown.savedRemaining !== savedRemaining || shown.savedExpires !== savedExpires) {
    setShown({ savedRemaining, savedExpires });
    setRemaining(savedRemaining);
    setExpires(savedExpires);
  }
  useEffect(() => {
    if (confirming) keep.current?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      opener.current?.focus();
    }
  }, [confirming]);

  const expired = p.refusal === "expired";
  const usedUp = p.refusal === "used-up";
  const state = expired
    ? "Expired: the link refuses until you change the expiry."
    : usedUp
      ? "Used up: the link refuses until you give it downloads remaining."
      : "The link works.";

  function focusFirstError() {
    requestAnimationFrame(() => group.current?.querySelector<HTMLInputElement>("[aria-invalid='true']")?.focus());
  }

  async function save() {
    if (busy) return;
    const r = remaining.trim();
    if (r !== "" && !/^\d+$/.test(r)) {
      setErrors({ remaining: "Enter a whole number of downloads, or leave it blank for unlimited." });
      focusFirstError();
      return;
    }
    const changes: Record<string, unknown> = {};
    const nextRemaining = r === "" ? null : Number(r);
    if (nextRemaining !== p.downloads_remaining) changes.downloads_remaining = nextRemaining;
    if (expires !== savedExpires) changes.access_expires = expires === "" ? null : expires;
    setErrors({});
    if (Object.keys(changes).length === 0) {
      props.onResult({ status: "success", text: `Nothing to save for ${fileName(p)}: the values are the saved ones.` });
      return;
    }
    setBusy(true);
    props.onResult(null);
    try {
      const { body } = await send<DownloadPermission>(`/shop/v1/orders/${props.orderId}/downloads/${p.id}`, "PUT", changes);
      const left =
        body.downloads_remaining === null
          ? "unlimited downloads"
          : `${body.downloads_remaining} ${body.downloads_remaining === 1 ? "download" : "downloads"} remaining`;
      const until = body.access_expires === null ? "never expires" : `expires ${body.access_expires.slice(0, 10)}`;
      props.onResult({ status: "success", text: `Access to ${fileName(p)} saved: ${left}, ${until}.` });
      props.onChanged();
    } catch (e) {
      const err = e as RestError;
      const params = paramsOf(err);
      if (params.downloads_remaining || params.access_expires) {
        setErrors({ remaining: params.downloads_remaining, expires: params.access_expires });
        focusFirstError();
      } else props.onResult({ status: "error", text: `Access to ${fileName(p)} was not saved: ${err.message}` });
    } finally {
      setBusy(false);
    }
  }

  async function revoke() {
    if (busy) return;
    setBusy(true);
    props.onResult(null);
    try {
      await send(`/shop/v1/orders/${props.orderId}/downloads/${p.id}`, "DELETE", undefined);
      props.onResult({ status: "success", text: `Access to ${fileName(p)} revoked: the customer's link no longer works.` });
      props.onRevoked();
    } catch (e) {
      setBusy(false);
      props.onResult({ status: "error", text: `Access to ${fileName(p)} was not revoked: ${(e as RestError).message}` });
    }
  }

  const error = (text: string | undefined) =>
    text ? (
      <span className="admin-field-error" role="alert">
        {text}
      </span>
    ) : undefined;

  return (
    <li>
      <fieldset ref={group} className="admin-download-permission">
        <legend>
          {p.product_name} — {fileName(p)}
        </legend>
        <p>
          Downloaded {times(p.download_count)} ·{" "}
          {p.downloads_remaining === null
            ? "unlimited downloads"
            : `${p.downloads_remaining} ${p.downloads_remaining === 1 ? "download" : "downloads"} remaining`}
          {p.download_limit >= 0 ? ` (the product allows ${p.download_limit} per purchase)` : ""} · access{" "}
          {p.access_expires === null ? "never expires" : `expires ${when(p.access_expires)} UTC`} · granted {when(p.access_granted)} UTC
        </p>
        <p className={expired || usedUp ? "admin-field-error" : "admin-hint"}>{state}</p>
        <div className="admin-row">
          <TextControl
            __next40pxDefaultSize
            label="Downloads remaining"
            type="number"
            min={0}
            value={remaining}
            onChange={(v) => {
              setRemaining(v);
              setErrors((x) => ({ ...x, remaining: undefined }));
            }}
            aria-invalid={Boolean(errors.remaining)}
            help={error(errors.remaining) ?? "Blank for unlimited."}
          />
          <TextControl
            __next40pxDefaultSize
            label="Access expires"
            type="date"
            value={expires}
            onChange={(v) => {
              setExpires(v);
              setErrors((x) => ({ ...x, expires: undefined }));
            }}
            aria-invalid={Boolean(errors.expires)}
            help={error(errors.expires) ?? "Blank for never; the link works through that day (UTC)."}
          />
        </div>
        <p className="admin-hint admin-download-link">
          Customer download link: <code>{p.download_url}</code>
        </p>
        {confirming ? (
          <div className="admin-buttons admin-note-confirm" role="group" aria-label={`Revoke access to ${fileName(p)}?`}>
            <span>Revoke access to {fileName(p)}? The customer's link stops working.</span>
            <Button variant="secondary" isDestructive isBusy={busy} aria-disabled={busy} onClick={() => void revoke()} __next40pxDefaultSize>
              Yes, revoke access
            </Button>
            <Button
              ref={keep}
              variant="tertiary"
              onClick={() => {
                returnFocus.current = true;
                setConfirming(false);
              }}
              __next40pxDefaultSize
            >
              Keep access
            </Button>
          </div>
        ) : (
          <div className="admin-buttons">
            <Button variant="secondary" isBusy={busy} aria-disabled={busy} onClick={() => void save()} __next40pxDefaultSize>
              Save access
            </Button>
            <Button ref={opener} variant="tertiary" isDestructive onClick={() => setConfirming(true)} __next40pxDefaultSize>
              Revoke access…
            </Button>
          </div>
        )}
      </fieldset>
    </li>
  );
}

/** `onResult`: the screen's one live region above the order (a status, or an alert for a refusal). */
export function OrderDownloads({ orderId, reloads, onResult: setResult }: { orderId: number; reloads: number; onResult: (r: ActionResult) => void }) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [own, setOwn] = useState(0);
  const [choice, setChoice] = useState<string | null>(null);
  const [grantError, setGrantError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const picker = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    Promise.all([
      getWithHeaders<DownloadPermission[]>(`/shop/v1/orders/${orderId}/downloads`),
      getWithHeaders<DownloadableProduct[]>(`/wc/v3/products?downloadable=true&per_page=100&orderby=title&order=asc`),
    ]).then(
      ([permissions, products]) => live && setLoad({ state: "ready", permissions: permissions.body, products: products.body }),
      (e: RestError) => live && setLoad({ state: "error", error: e }),
    );
    return () => {
      live = false;
    };
  }, [orderId, reloads, own]);

  // The grant picker's combobox gets aria-controls while its list is open (ARIA 1.2).
  const pickerShown = load.state === "ready";
  useComboboxControls(picker, pickerShown);

  const reload = () => setOwn((n) => n + 1);
  const ready = load.state === "ready" ? load : null;
  const granted = new Set(ready?.permissions.map((p) => `${p.product_id}:${p.download_id}`) ?? []);
  const options = (ready?.products ?? []).flatMap((product) =>
    product.downloads
      .filter((d) => !granted.has(`${product.id}:${d.id}`))
      .map((d) => ({ value: `${product.id}:${d.id}`, label: `${product.name} — ${d.name || "(no name)"}` })),
  );

  async function grant() {
    if (busy) return;
    const option = options.find((o) => o.value === choice);
    if (!option) {
      setGrantError("Choose a file to grant access to first.");
      picker.current?.querySelector("input")?.focus();
      return;
    }
    const cut = option.value.indexOf(":");
    setBusy(true);
    setResult(null);
    setGrantError(null);
    try {
      await send(`/shop/v1/orders/${orderId}/downloads`, "POST", {
        product_id: Number(option.value.slice(0, cut)),
        download_id: option.value.slice(cut + 1),
      });
      setChoice(null);
      setResult({ status: "success", text: `Access granted to ${option.label}.` });
      reload();
    } catch (e) {
      const err = e as RestError;
      const params = paramsOf(err);
      if (params.product_id || params.download_id) {
        setGrantError(params.download_id ?? params.product_id ?? err.message);
        picker.current?.querySelector("input")?.focus();
      } else setResult({ status: "error", text: `Access was not granted: ${err.message}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="admin-card admin-order-downloads" aria-labelledby="order-downloads">
      <h2 id="order-downloads" ref={heading} tabIndex={-1}>
        Downloadable product permissions
      </h2>
      {load.state === "loading" ? <p className="admin-hint">Loading the download permissions…</p> : null}
      {load.state === "error" ? <LoadError error={load.error} /> : null}
      {ready ? (
        <>
          {ready.permissions.length ? (
            <ul className="admin-notes">
              {ready.permissions.map((p) => (
                <PermissionItem
                  key={p.id}
                  orderId={orderId}
                  permission={p}
                  onResult={setResult}
                  onChanged={reload}
                  onRevoked={() => {
                    heading.current?.focus();
                    reload();
                  }}
                />
              ))}
            </ul>
          ) : (
            <p>No downloads granted for this order. Paying for a downloadable product grants its files; you can grant access below.</p>
          )}
          <div className="admin-grant-access" ref={picker}>
            <ComboboxControl
              __next40pxDefaultSize
              __nextHasNoMarginBottom
              label="Grant access to a file"
              placeholder="Search for a downloadable product…"
              options={options}
              value={choice}
              onChange={(v) => {
                setChoice(v ?? null);
                setGrantError(null);
              }}
              help={
                grantError ? (
                  <span className="admin-field-error" role="alert">
                    {grantError}
                  </span>
                ) : options.length ? (
                  "A file of one of the shop's downloadable products, with the product's download limit and expiry from now."
                ) : (
                  "Every file of the shop's downloadable products is granted on this order already."
                )
              }
            />
            <Button variant="secondary" isBusy={busy} aria-disabled={busy} onClick={() => void grant()} __next40pxDefaultSize>
              Grant access
            </Button>
          </div>
        </>
      ) : null}
    </section>
  );
}
