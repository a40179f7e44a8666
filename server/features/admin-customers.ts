/**
 * What the admin's customer screen needs beyond `wc/v3/customers` and `wc/v3/orders?customer=` (docs/contract/rest/
 * shop-v1.md 'customers'; the screen: docs/contract/admin.md 'Customer'):
 *
 * - `GET shop/v1/customers/{id}/payment-methods` (`list_users`): the customer's saved payment methods as brand,
 *   last four, expiry, gateway and default — never the gateway's token.
 * - `POST shop/v1/customers/{id}/password-reset` (`edit_users`; a shop manager for customers only, as WordPress's
 *   "Send password reset"): the lost-password form's e-mail through the outbox, under the same limits
 *   (core/commerce/accounts.ts sendPasswordResetFor), audited.
 */
import { json } from "../http/dispatch.ts";
import { restError, type RestInput } from "../http/rest.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import type { Feature } from "./feature.ts";
import { findUser } from "../../core/db/repositories/customers.ts";
import { savedMethodSummaries } from "../../core/db/repositories/dashboard.ts";
import { sendPasswordResetFor, AUTH_LIMITS } from "../../core/commerce/accounts.ts";
import { canEditUser } from "../../core/domain/users/access.ts";
import { tokenLabel } from "../../core/domain/payments/token-label.ts";

const invalidId = () => restError("woocommerce_rest_customer_invalid_id", "Invalid resource ID.", 404);
const idOf = (input: RestInput) => Number(input.pathParams.id);

export const adminCustomersFeature: Feature = {
  name: "admin-customers",
  endpoints({ rest }) {
    rest.register("GET", "shop/v1/customers/:id(\\d{1,9})/payment-methods", async (input) => {
      const user = await staffUser(input, "list_users");
      if (isReply(user)) return user;
      const customer = await findUser(input.services.db, idOf(input));
      if (!customer) return invalidId();
      const methods = await savedMethodSummaries(input.services.db, customer.id);
      return json(
        methods.map((m) => ({
          id: m.id,
          gateway: m.gatewayId,
          type: m.kind,
          brand: m.brand,
          last4: m.last4,
          expires: m.expMonth && m.expYear ? `${String(m.expMonth).padStart(2, "0")}/${String(m.expYear).slice(-2)}` : null,
          is_default: m.isDefault,
          label: tokenLabel(m),
        })),
        200,
        { "Cache-Control": "no-store" },
      );
    });

    rest.register("POST", "shop/v1/customers/:id(\\d{1,9})/password-reset", async (input) => {
      const user = await staffUser(input, "edit_users");
      if (isReply(user)) return user;
      const customer = await findUser(input.services.db, idOf(input));
      if (!customer) return invalidId();
      if (!canEditUser(user, customer)) return restError("rest_cannot_edit", "Sorry, you are not allowed to edit this user.", 403);
      const { services } = input;
      const done = await sendPasswordResetFor(services.db, customer, { siteUrl: services.siteUrl, address: input.req.ip ?? "unknown", now: services.now() });
      if (!done.sent) {
        return restError(
          "shop_rest_password_reset_limited",
          done.limited ? AUTH_LIMITS.tooManyMessage : "Enough password reset e-mails were sent to this customer in the last hour. Please try again later.",
          429,
        );
      }
      await audit(input, user, { action: "password_reset", objectType: "user", objectId: customer.id, changes: { email: customer.email } });
      return json({ sent: true, email: customer.email });
    });
  },
};
