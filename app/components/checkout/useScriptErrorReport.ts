import { useEffect, type RefObject } from "react";
import type { GatewaySettings } from "../../../core/domain/payments/index.ts";
import { post } from "./checkout-client.ts";
import { reportScriptError } from "../../lib/page-errors.ts";

/**
 * A script of the payment page that fails to load is reported to the server (docs/contract/storefront.md §7, payment form log), by
 * the form in use: the card form's action and nonce, or the e-check form's; the shopper is told "A script error has
 * occurred." (§8).
 */
export function useScriptErrorReport(
  gateways: { card: GatewaySettings; echeck: GatewaySettings },
  methodRef: RefObject<string>,
  nonces: { card: string; echeck: string },
): void {
  const { card, echeck } = gateways;
  useEffect(() => {
    const onError = (e: Event) => {
      const target = e.target as HTMLScriptElement | null;
      if (!target || target.tagName !== "SCRIPT") return;
      // A tracking destination's script (often blocked by the browser): analytics only, never the payment form's.
      if ((target as HTMLScriptElement).dataset.shopTracking !== undefined) return;
      const name = target.src ? new URL(target.src, window.location.href).pathname : "inline";
      const isEcheck = methodRef.current === echeck.id;
      const action = isEcheck ? `${echeck.plugin_id}_echeck_payment_form_log_script_event` : `${card.plugin_id}_credit_card_payment_form_log_script_event`;
      const security = isEcheck ? nonces.echeck : nonces.card;
      reportScriptError();
      void post("/wp-admin/admin-ajax.php", new URLSearchParams({ action, security, name, message: `The script ${name} could not be loaded.` })).catch(
        () => undefined,
      );
    };
    window.addEventListener("error", onError, true);
    return () => window.removeEventListener("error", onError, true);
  }, [card.plugin_id, echeck.plugin_id, echeck.id, nonces.card, nonces.echeck, methodRef]);
}
