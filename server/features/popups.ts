/**
 * Popups over REST (docs/contract/storefront.md §4 'Popups', docs/contract/wire.md §2 'Popups'):
 * - `POST shop/v1/popups/{id}/events` — the browser's report (impression, close, do_not_show_again, conversion),
 *   anonymous, validated and limited per client (its key cookie) and per client address (a rotated cookie gets no
 *   fresh limit);
 * - staff only (administrator or shop_manager, signed in, with the REST nonce): `GET shop/v1/popups/stats`,
 *   `GET|POST shop/v1/popups`, `GET|PUT|POST|DELETE shop/v1/popups/{id}`. Settings are validated by the domain's
 *   schema; a refusal names the field and saves nothing. A popup's read answers its version as `ETag`; an update
 *   sent with it as `If-Match` after someone else's save is refused (412 `rest_popup_changed`).
 */
import { z } from "zod";
import { json } from "../http/dispatch.ts";
import { restError, type RestInput } from "../http/rest.ts";
import type { Endpoints, Feature } from "./feature.ts";
import { canSeeOrder } from "../../core/commerce/order-access.ts";
import { deletePopup, findPopup, listPopups, popupStatsReport, popupVersion, recordEvent, savePopup, type StoredPopup } from "../../core/commerce/popups.ts";
import { ifMatchOf } from "../http/rest-args.ts";
import { BROWSER_KEY_COOKIE } from "../http/request-context.ts";
import { isReply, requireCapability, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import { changedFields } from "../http/rest-write.ts";

const popupId = (raw: string | undefined): number | null => (raw && /^[1-9][0-9]{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null);
const invalidId = () => restError("rest_popup_invalid_id", "Invalid popup ID.", 404);

/** The version an editor sends back as If-Match (docs/contract/wire.md §2.10 'Two editors'). */
const versionHeader = (p: StoredPopup) => ({ ETag: `"${popupVersion(p.updatedAt)}"` });
const popupJson = (p: StoredPopup) => ({ id: p.id, ...p.settings, modified_gmt: p.updatedAt.toISOString() });

const eventBody = z.strictObject({
  event: z.enum(["impression", "close", "do_not_show_again", "conversion"]),
  order_id: z.number().int().min(1).max(2_147_483_647).optional(),
  order_key: z.string().max(100).optional(),
});

/** The browser's key (the nonce cookie), else its address: whom the limit and a conversion's impression belong to. */
function clientKey(input: RestInput): string {
  const key = input.req.shop.cookies[BROWSER_KEY_COOKIE];
  return key && /^[0-9a-f]{32}$/.test(key) ? `browser:${key}` : `address:${input.req.ip ?? "unknown"}`;
}

function registerPopupEndpoints({ rest }: Endpoints): void {
  rest.register("POST", "shop/v1/popups/:id/events", async (input) => {
    const id = popupId(input.pathParams.id);
    if (id === null) return invalidId();
    const parsed = eventBody.safeParse(input.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const param = String(issue.path[0] ?? (issue.code === "unrecognized_keys" ? issue.keys[0] : "event"));
      return restError("rest_invalid_param", `Invalid parameter(s): ${param}`, 400, { params: { [param]: issue.message } });
    }
    const body = parsed.data;
    if (body.event === "conversion" && (body.order_id === undefined || !body.order_key)) {
      return restError("rest_missing_callback_param", "Missing parameter(s): order_id, order_key", 400, { params: ["order_id", "order_key"] });
    }
    const session = await input.req.shop.session();
    const outcome = await recordEvent(input.services.db, {
      popupId: id,
      kind: body.event,
      clientKey: clientKey(input),
      clientAddress: input.req.ip ?? "unknown",
      now: input.services.now(),
      order:
        body.event === "conversion"
          ? {
              id: body.order_id!,
              key: body.order_key!,
              visible: (order) => canSeeOrder(order, session ? { customerId: session.customerId, data: session.data } : null),
            }
          : undefined,
    });
    if (!outcome.ok) return restError(outcome.code, outcome.message, outcome.status);
    return json({ recorded: outcome.recorded }, outcome.recorded ? 201 : 200);
  });

  rest.register("GET", "shop/v1/popups/stats", async (input) => {
    const refused = await requireCapability(input, "view_woocommerce_reports");
    if (refused) return refused;
    return json(await popupStatsReport(input.services.db));
  });

  rest.register("GET", "shop/v1/popups", async (input) => {
    const refused = await requireCapability(input, "manage_woocommerce");
    if (refused) return refused;
    return json((await listPopups(input.services.db)).map(popupJson));
  });

  const save = async (input: RestInput, id: number | null) => {
    const user = await staffUser(input, "manage_woocommerce");
    if (isReply(user)) return user;
    const before = id === null ? null : await findPopup(input.services.db, id);
    const result = await savePopup(input.services.db, id, input.body, id === null ? undefined : ifMatchOf(input.req));
    if (!result.ok) {
      if (result.status === 404) return invalidId();
      if (result.status === 412) return restError("rest_popup_changed", result.message, 412);
      return restError("rest_invalid_param", `Invalid parameter(s): ${result.field}`, 400, { params: { [result.field!]: result.message } });
    }
    const saved = await findPopup(input.services.db, result.id);
    // Every staff write is audited (docs/contract/wire.md §2.6a).
    const changes = changedFields(before ? { ...before.settings } : null, { ...saved!.settings });
    await audit(input, user, { action: id === null ? "create" : "update", objectType: "popup", objectId: result.id, changes });
    return json(popupJson(saved!), id === null ? 201 : 200, versionHeader(saved!));
  };
  rest.register("POST", "shop/v1/popups", (input) => save(input, null));

  for (const method of ["PUT", "POST"]) {
    rest.register(method, "shop/v1/popups/:id", async (input) => {
      const id = popupId(input.pathParams.id);
      if (id === null) return invalidId();
      return save(input, id);
    });
  }

  rest.register("GET", "shop/v1/popups/:id", async (input) => {
    const refused = await requireCapability(input, "manage_woocommerce");
    if (refused) return refused;
    const id = popupId(input.pathParams.id);
    const popup = id === null ? null : await findPopup(input.services.db, id);
    if (!popup) return invalidId();
    return json(popupJson(popup), 200, versionHeader(popup));
  });

  rest.register("DELETE", "shop/v1/popups/:id", async (input) => {
    const user = await staffUser(input, "manage_woocommerce");
    if (isReply(user)) return user;
    const id = popupId(input.pathParams.id);
    if (id === null || !(await deletePopup(input.services.db, id))) return invalidId();
    await audit(input, user, { action: "delete", objectType: "popup", objectId: id });
    return json({ deleted: true, id });
  });
}

export const popupsFeature: Feature = {
  name: "popups",
  endpoints(endpoints, services) {
    // An unknown timezone would make every scheduled popup fail closed: refuse it at start instead.
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: services.config.popups.timezone });
    } catch {
      throw new Error(`SHOP_SETTINGS: popups.timezone is not a known timezone (${services.config.popups.timezone})`);
    }
    registerPopupEndpoints(endpoints);
  },
};
