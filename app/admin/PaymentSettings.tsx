/**
 * Settings › Payments (docs/contract/admin.md 'Settings'): `shop/v1/settings/payments`, the card gateway's options
 * (docs/contract/storefront.md §3 'Payment gateway settings'): the card types accepted and whether the security code
 * is required. The server applies them to every payment from the next request (the checkout, the Store API's
 * checkout, paying for an order, adding a card), not only the form. The shop's one processor is the sandbox, in
 * test mode: said plainly at the top.
 */
import { CheckboxControl, Notice } from "@wordpress/components";
import { SectionForm } from "./settings-section.tsx";
import { CARD_TYPES } from "../../core/domain/payments/card-types.ts";

interface Payments extends Record<string, unknown> {
  cscRequired: boolean;
  cscRequiredForTokens: boolean;
  enabledCardTypes: string[];
}

export default function PaymentSettings({ onDirty }: { onDirty: (dirty: boolean) => void }) {
  return (
    <>
      <Notice status="warning" isDismissible={false} className="admin-settings-gateway">
        <p>
          <strong className="admin-settings-test-mode">Test mode</strong> Payments go to the <strong>sandbox</strong> processor: no money moves, and only its{" "}
          <a href="/payments/test-numbers/">test card and bank numbers</a> are approved. No live payment provider is configured.
        </p>
      </Notice>
      <SectionForm<Payments> section="payments" legend="Credit card" onDirty={onDirty}>
        {(s) => {
          const enabled = new Set(s.form.enabledCardTypes);
          // Kept in the spec's order, whatever order they were ticked in.
          const toggle = (name: string, on: boolean) =>
            s.set(
              "enabledCardTypes",
              CARD_TYPES.map((t) => t.name as string).filter((n) => (n === name ? on : enabled.has(n))),
            );
          const listError = s.err("enabledCardTypes").help;
          return (
            <>
              <fieldset className="admin-fieldset" aria-describedby="card-types-hint">
                <legend>Accepted card types</legend>
                <p id="card-types-hint" className="admin-hint">
                  A card of another type is refused at checkout with the card form's message.
                </p>
                {listError ? <p role="alert">{listError}</p> : null}
                {CARD_TYPES.map((t) => (
                  <CheckboxControl key={t.name} label={t.displayName} checked={enabled.has(t.name)} onChange={(on) => toggle(t.name, on)} />
                ))}
              </fieldset>
              <CheckboxControl
                label="Require the card security code (CSC) for a new card"
                checked={s.form.cscRequired}
                onChange={(v) => s.set("cscRequired", v)}
                {...s.err("cscRequired")}
              />
              <CheckboxControl
                label="Require the card security code when paying with a saved card"
                checked={s.form.cscRequiredForTokens}
                onChange={(v) => s.set("cscRequiredForTokens", v)}
                {...s.err("cscRequiredForTokens")}
              />
            </>
          );
        }}
      </SectionForm>
    </>
  );
}
