/**
 * WooCommerce REST v3 orders for staff (docs/contract/rest/orders.md): `wc/v3/orders` (list, get, create, update
 * along the status machine, delete), `wc/v3/orders/{id}/notes` and `wc/v3/orders/{id}/refunds` (through the payment
 * gateway, idempotent, decision 0022). Capability `edit_shop_orders`; a guest gets 401 and a customer 403 with
 * WooCommerce's codes; every write is audited (docs/contract/wire.md §2.6a).
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput, type RestUser } from "../http/rest.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { ifMatchOf, listArgs, pagedJson, pageOutOfRange, parseArgs, requestArgs, restBool, restDate, restIdList, restInt } from "../http/rest-args.ts";
import { audit } from "../http/rest-audit.ts";
import type { Feature } from "./feature.ts";
import type { AppServices } from "../services.ts";
import { paymentRuntime } from "../../core/commerce/payment-runtime.server.ts";
import {
  addOrderNote,
  changeOrderStatus,
  createStaffOrder,
  deleteManualRefund,
  deleteOrderForGood,
  editOrderLines,
  OrderAdminError,
  refundOrder,
  sendOrderDetails,
  updateOrderDetails,
  type OrderAdminDeps,
} from "../../core/commerce/order-admin.ts";
import * as admin from "../../core/db/repositories/order-admin.ts";
import { findCustomerProfile } from "../../core/db/repositories/customers.ts";
import { ORDER_STATUSES, type OrderStatus } from "../../core/domain/orders/status.ts";
import type { OrderAddress } from "../../core/domain/orders/types.ts";
import { staffAddressProblems } from "../../core/domain/checkout/address-form.ts";
import { currentSiteConfig } from "../../core/commerce/site-settings.ts";
import { destinationFrom } from "../../core/commerce/customer-country.ts";
import { taxPricing } from "../../core/commerce/tax.ts";
import { addressArg, addressUpdateArg, EMPTY_ADDRESS, moneyArg, noteJson, orderJson, refundJson } from "./wc-orders-wire.ts";

/**
 * The shop's version, as WooCommerce's `version` field and system_status report it: package.json's, which sits two
 * folders up both from this file and from the built server (build/server/index.js).
 */
export const SHOP_VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  } catch {
    return process.env.npm_package_version ?? "0.0.0";
  }
})();

/** WooCommerce's permission answers (401 for a guest, 403 for a signed-in user without the capability). */
export const WC_DENIED = {
  list: { code: "woocommerce_rest_cannot_view", message: "Sorry, you cannot list resources." },
  view: { code: "woocommerce_rest_cannot_view", message: "Sorry, you cannot view this resource." },
  create: { code: "woocommerce_rest_cannot_create", message: "Sorry, you are not allowed to create resources." },
  edit: { code: "woocommerce_rest_cannot_edit", message: "Sorry, you are not allowed to edit this resource." },
  delete: { code: "woocommerce_rest_cannot_delete", message: "Sorry, you are not allowed to delete this resource." },
} as const;

const invalidOrder = () => restError("woocommerce_rest_shop_order_invalid_id", "Invalid ID.", 404);
const invalidParentOrder = () => restError("woocommerce_rest_order_invalid_id", "Invalid order ID.", 404);
const invalidResource = () => restError("woocommerce_rest_invalid_id", "Invalid resource ID.", 404);
const trashNotSupported = (what: string) =>
  restError("woocommerce_rest_trash_not_supported", `The ${what} does not support trashing. Set 'force' to true.`, 501);

const adminError = (e: unknown): Reply => {
  if (e instanceof OrderAdminError) return restError(e.code, e.message, e.status, e.extra);
  throw e;
};

const deps = (services: AppServices): OrderAdminDeps => {
  const rt = paymentRuntime(services);
  return { db: services.db, gateway: rt.gateway, currency: rt.deps.currency, currencyFormat: rt.deps.currencyFormat };
};

/** The order's version: its last change in milliseconds, as the ETag of GET and PUT `wc/v3/orders/{id}`. */
const orderVersion = (o: { updatedAt: Date }) => String(o.updatedAt.getTime());
const versionHeader = (o: { updatedAt: Date }) => ({ ETag: `"${orderVersion(o)}"`, "Cache-Control": "no-store" });
const changedSince = () =>
  new OrderAdminError("woocommerce_rest_order_changed", "This order was changed since you opened it. Reload to see the changes, then make yours again.", 412);

const shape = (services: AppServices) => ({ siteUrl: services.siteUrl, version: SHOP_VERSION, currencySymbol: services.config.currency.format.symbol });

async function loadOrder(services: AppServices, id: number) {
  return (await admin.adminOrders(services.db, [id]))[0] ?? null;
}

const idParam = (input: RestInput, name = "id"): number | null => {
  const v = input.pathParams[name] ?? "";
  return /^\d{1,10}$/.test(v) && Number(v) > 0 && Number(v) <= 2_147_483_647 ? Number(v) : null;
};

/** Writes whose body is not a JSON object name `body` as the invalid parameter. */
const statusList = z.preprocess(
  (v) =>
    typeof v === "string"
      ? v.split(",").map((s) => s.trim().replace(/^wc-/, ""))
      : Array.isArray(v)
        ? v.map((s) => (typeof s === "string" ? s.replace(/^wc-/, "") : s))
        : v,
  z.array(z.enum(["any", ...ORDER_STATUSES])).max(10),
);
const isoDate = restDate();

const listSchema = z.object({
  ...listArgs,
  after: isoDate.optional(),
  before: isoDate.optional(),
  include: restIdList().optional(),
  exclude: restIdList().optional(),
  status: statusList.optional(),
  customer: restInt(0).optional(),
  product: restInt(1).optional(),
  orderby: z.enum(["date", "id", "include", "title", "slug"]).default("date"),
  dp: restInt(0, 4).optional(),
  parent: z.unknown().optional(),
  parent_exclude: z.unknown().optional(),
});

const lineItemArg = z.object({
  product_id: restInt(1),
  variation_id: restInt(0).default(0),
  quantity: restInt(1, 10_000),
  subtotal: moneyArg().optional(),
  total: moneyArg().optional(),
});
const shippingLineArg = z.object({
  method_id: z.string().max(100).default(""),
  method_title: z.string().max(200).default(""),
  instance_id: z.string().max(40).optional(),
  total: moneyArg().default(0),
});

const createSchema = z.object({
  status: z.literal("pending").default("pending"),
  customer_id: restInt(0).default(0),
  customer_note: z.string().max(5000).default(""),
  billing: addressArg.default({}),
  shipping: addressArg.optional(),
  payment_method: z.string().max(100).default(""),
  payment_method_title: z.string().max(200).default(""),
  set_paid: z.literal(false, "set_paid is not supported: the customer pays on the order's payment_url").optional(),
  line_items: z.array(lineItemArg).min(1).max(100),
  shipping_lines: z.array(shippingLineArg).max(5).default([]),
});

/**
 * An item of `line_items` in an update (WooCommerce's semantics): with `id`, its new `quantity` (0 removes the
 * line); without, a product to add (`product_id`, `variation_id` for a variable product's variation, `quantity`).
 * Prices are not sent: the server prices and taxes the lines (decision 0048).
 */
const lineItemUpdateArg = z
  .strictObject({
    id: restInt(1).optional(),
    product_id: restInt(1).optional(),
    variation_id: restInt(0).optional(),
    quantity: restInt(0, 10_000).optional(),
  })
  .superRefine((l, ctx) => {
    if (l.id !== undefined && l.quantity === undefined) ctx.addIssue({ code: "custom", path: ["quantity"], message: "is required to change a line" });
    if (l.id === undefined && l.product_id === undefined) ctx.addIssue({ code: "custom", path: ["product_id"], message: "is required to add a line" });
    if (l.id === undefined && l.quantity === 0) ctx.addIssue({ code: "custom", path: ["quantity"], message: "must be at least 1 for a new line" });
  });
const lineItemsUpdateArg = z.array(lineItemUpdateArg).min(1).max(100);

/** `rest_invalid_param` naming each bad item's field (`line_items[2].product_id`), as the address edits name theirs. */
function lineItemsInvalid(error: z.ZodError): Reply {
  const params: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]!] : issue.path;
    const name = ["line_items", ...path].map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");
    const message = issue.code === "unrecognized_keys" ? "cannot be set: the server prices the lines" : issue.message.replace(/^Invalid input: /, "");
    params[name] ??= `${name} ${message}`;
  }
  return restError("rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, 400, { params });
}

const updateSchema = z.object({
  id: restInt(1),
  status: z.enum(ORDER_STATUSES).optional(),
  billing: addressUpdateArg.optional(),
  shipping: addressUpdateArg.optional(),
  customer_note: z.string().max(5000).optional(),
});

/** WooCommerce's update refuses what it cannot do; we name the fields we do not change rather than ignore them. */
const READ_ONLY_ON_UPDATE = ["shipping_lines", "fee_lines", "coupon_lines", "customer_id", "currency", "set_paid"] as const;

const merge = (base: OrderAddress | undefined, patch: Partial<OrderAddress> | undefined): OrderAddress => ({
  ...EMPTY_ADDRESS,
  ...(base ?? {}),
  ...(patch ?? {}),
});

async function guard(input: RestInput, denied: (typeof WC_DENIED)[keyof typeof WC_DENIED]): Promise<RestUser | Reply> {
  return staffUser(input, "edit_shop_orders", denied);
}

export const wcOrdersFeature: Feature = {
  name: "wc-orders",
  endpoints({ rest }) {
    if (!rest.namespaces.includes("wc/v3")) rest.namespaces.push("wc/v3");

    rest.register("GET", "wc/v3/orders", async (input) => {
      const user = await guard(input, WC_DENIED.list);
      if (isReply(user)) return user;
      const args = parseArgs(listSchema, requestArgs(input));
      if (!args.ok) return args.reply;
      const a = args.data;
      const statuses = !a.status || a.status.includes("any") ? null : (a.status as OrderStatus[]);
      const offset = a.offset ?? (a.page - 1) * a.per_page;
      const { ids, total } = await admin.listOrderIds(input.services.db, {
        statuses,
        customerId: a.customer,
        productId: a.product,
        include: a.include,
        exclude: a.exclude,
        search: a.search,
        after: a.after,
        before: a.before,
        orderby: a.orderby,
        order: a.order,
        limit: a.per_page,
        offset,
      });
      const outOfRange = pageOutOfRange(total, a.page, a.per_page);
      if (outOfRange) return outOfRange;
      const orders = await admin.adminOrders(input.services.db, ids);
      return pagedJson(
        input.req,
        orders.map((o) => orderJson(o, shape(input.services))),
        total,
        a.page,
        a.per_page,
      );
    });

    rest.register("GET", "wc/v3/orders/:id", async (input) => {
      const user = await guard(input, WC_DENIED.view);
      if (isReply(user)) return user;
      const id = idParam(input);
      const o = id === null ? null : await loadOrder(input.services, id);
      return o ? json(orderJson(o, shape(input.services)), 200, versionHeader(o)) : invalidOrder();
    });

    rest.register("POST", "wc/v3/orders", async (input) => {
      const user = await guard(input, WC_DENIED.create);
      if (isReply(user)) return user;
      if (requestArgs(input).id !== undefined) return restError("woocommerce_rest_shop_order_exists", "Cannot create existing order.", 400);
      const args = parseArgs(createSchema, requestArgs(input));
      if (!args.ok) return args.reply;
      const a = args.data;
      const customer = a.customer_id > 0 ? await findCustomerProfile(input.services.db, a.customer_id) : null;
      if (a.customer_id > 0 && !customer) {
        return restError("woocommerce_rest_invalid_customer_id", "Customer ID is invalid.", 400, { params: { customer_id: "customer_id is not a customer" } });
      }
      const billing = merge(
        customer ? { ...EMPTY_ADDRESS, email: customer.email, first_name: customer.firstName, last_name: customer.lastName } : undefined,
        a.billing,
      );
      if (!billing.email) {
        return restError("rest_invalid_param", "Invalid parameter(s): billing", 400, { params: { billing: "billing.email is required (or a customer_id)" } });
      }
      let orderId: number;
      try {
        orderId = await createStaffOrder(
          deps(input.services),
          {
            customerId: customer?.id ?? null,
            billing,
            shipping: a.shipping ? merge(undefined, a.shipping) : null,
            lines: a.line_items.map((l) => ({
              productId: l.product_id,
              variationId: l.variation_id,
              quantity: l.quantity,
              subtotal: l.subtotal,
              total: l.total,
            })),
            shippingLines: a.shipping_lines.map((s) => ({
              methodId: s.instance_id ? `${s.method_id}:${s.instance_id}` : s.method_id,
              methodTitle: s.method_title,
              total: s.total,
            })),
            customerNote: a.customer_note,
            paymentMethod: a.payment_method,
            paymentMethodTitle: a.payment_method_title,
          },
          user.id,
        );
      } catch (e) {
        return adminError(e);
      }
      await audit(input, user, {
        action: "create",
        objectType: "order",
        objectId: orderId,
        changes: {
          status: "pending",
          customer_id: a.customer_id,
          line_items: a.line_items.map((l) => ({ product_id: l.product_id, variation_id: l.variation_id, quantity: l.quantity })),
        },
      });
      const o = await loadOrder(input.services, orderId);
      return json(orderJson(o!, shape(input.services)), 201);
    });

    const update = async (input: RestInput): Promise<Reply> => {
      const user = await guard(input, WC_DENIED.edit);
      if (isReply(user)) return user;
      const id = idParam(input);
      const before = id === null ? null : await loadOrder(input.services, id);
      if (!before) return invalidOrder();
      const raw = requestArgs(input);
      const fixed = READ_ONLY_ON_UPDATE.filter((k) => raw[k] !== undefined);
      if (fixed.length) {
        const params = Object.fromEntries(fixed.map((k) => [k, `${k} cannot be changed through the API`]));
        return restError("rest_invalid_param", `Invalid parameter(s): ${fixed.join(", ")}`, 400, { params });
      }
      const { line_items: rawLines, ...rest } = raw;
      const args = parseArgs(updateSchema, rest);
      if (!args.ok) return args.reply;
      const a = args.data;
      const lineItems = rawLines === undefined ? null : lineItemsUpdateArg.safeParse(rawLines);
      if (lineItems && !lineItems.success) return lineItemsInvalid(lineItems.error);
      // A client that read the order's ETag sends it back: a save over someone else's change is refused.
      const version = ifMatchOf(input.req);
      if (version !== undefined && version !== orderVersion(before)) return adminError(changedSince());
      // The addresses by the checkout's rules, each refusal naming its field (`billing.postcode`).
      const params: Record<string, string> = {};
      const addresses: Partial<Record<"billing" | "shipping", OrderAddress>> = {};
      for (const kind of ["billing", "shipping"] as const) {
        const patch = a[kind];
        if (!patch) continue;
        const checked = staffAddressProblems(kind, merge(before.addresses[kind], patch), Object.keys(patch));
        for (const [k, message] of Object.entries(checked.problems)) params[`${kind}.${k}`] = message;
        addresses[kind] = checked.address;
      }
      if (Object.keys(params).length) return restError("rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, 400, { params });
      const changes: Record<string, unknown> = {};
      const d = deps(input.services);
      // The lines first, while the order is still editable (WooCommerce saves the items before the status); the
      // version is checked again under the order's lock.
      if (lineItems?.success) {
        const items = lineItems.data.map((l, index) => ({ ...l, index }));
        const wrongProduct = items.find(
          (l) => l.id !== undefined && l.product_id !== undefined && before.lines.find((x) => x.id === l.id)?.productId !== l.product_id,
        );
        if (wrongProduct) {
          const name = `line_items[${wrongProduct.index}].product_id`;
          return restError("rest_invalid_param", `Invalid parameter(s): ${name}`, 400, {
            params: { [name]: `${name}: a line's product cannot be changed; remove the line and add the product.` },
          });
        }
        const config = await currentSiteConfig(input.services);
        const { tax } = taxPricing(config, {
          shipping: destinationFrom(addresses.shipping ?? before.addresses.shipping ?? {}),
          billing: destinationFrom(addresses.billing ?? before.addresses.billing ?? {}),
        });
        try {
          const edited = await editOrderLines(
            d,
            before.id,
            {
              changes: items.flatMap((l) => (l.id !== undefined ? [{ index: l.index, id: l.id, quantity: l.quantity! }] : [])),
              additions: items.flatMap((l) =>
                l.id === undefined ? [{ index: l.index, productId: l.product_id!, variationId: l.variation_id ?? 0, quantity: l.quantity ?? 1 }] : [],
              ),
            },
            { actorId: user.id, version, ...(tax ? { tax } : {}) },
          );
          if (edited) changes.line_items = { added: edited.added, removed: edited.removed, changed: edited.changed, total: edited.total };
        } catch (e) {
          return adminError(e);
        }
      }
      // The status next: a refused change answers its error before anything else is written.
      if (a.status !== undefined && a.status !== before.status) {
        try {
          await changeOrderStatus(d, before.id, a.status, user.id);
        } catch (e) {
          return adminError(e);
        }
        changes.status = { from: before.status, to: a.status };
      }
      const { billing, shipping } = addresses;
      if (billing || shipping || a.customer_note !== undefined) {
        try {
          await updateOrderDetails(
            d,
            before.id,
            { billing, shipping, customerNote: a.customer_note },
            // After a status or line change in the same request the version moved on: the checks above stand for all.
            { actorId: user.id, before: before.addresses, version: changes.status || changes.line_items ? undefined : version },
          );
        } catch (e) {
          return adminError(e);
        }
        if (billing) changes.billing = { from: before.addresses.billing ?? null, to: billing };
        if (shipping) changes.shipping = { from: before.addresses.shipping ?? null, to: shipping };
        if (a.customer_note !== undefined) changes.customer_note = { from: before.customerNote, to: a.customer_note };
      }
      if (Object.keys(changes).length) await audit(input, user, { action: "update", objectType: "order", objectId: before.id, changes });
      const after = (await loadOrder(input.services, before.id))!;
      return json(orderJson(after, shape(input.services)), 200, versionHeader(after));
    };
    rest.register("PUT", "wc/v3/orders/:id", update);
    rest.register("PATCH", "wc/v3/orders/:id", update);
    rest.register("POST", "wc/v3/orders/:id", update);

    rest.register("DELETE", "wc/v3/orders/:id", async (input) => {
      const user = await guard(input, WC_DENIED.delete);
      if (isReply(user)) return user;
      const args = parseArgs(z.object({ force: restBool().default(false) }).loose(), requestArgs(input));
      if (!args.ok) return args.reply;
      const id = idParam(input);
      const o = id === null ? null : await loadOrder(input.services, id);
      if (!o) return invalidOrder();
      if (!args.data.force) return trashNotSupported("order");
      const body = orderJson(o, shape(input.services));
      try {
        if (!(await deleteOrderForGood(deps(input.services), o.id))) return invalidOrder();
      } catch (e) {
        return adminError(e);
      }
      await audit(input, user, { action: "delete", objectType: "order", objectId: o.id, changes: { status: o.status, total: body.total } });
      return json(body);
    });

    // ── notes ──────────────────────────────────────────────────────────────────────────────────────────────────

    rest.register("GET", "wc/v3/orders/:id/notes", async (input) => {
      const user = await guard(input, WC_DENIED.list);
      if (isReply(user)) return user;
      const args = parseArgs(z.object({ type: z.enum(["any", "customer", "internal"]).default("any"), context: listArgs.context }), requestArgs(input));
      if (!args.ok) return args.reply;
      const id = idParam(input);
      if (id === null || !(await loadOrder(input.services, id))) return invalidParentOrder();
      return json((await admin.listNotes(input.services.db, id, args.data.type)).map(noteJson));
    });

    rest.register("GET", "wc/v3/orders/:id/notes/:note_id", async (input) => {
      const user = await guard(input, WC_DENIED.view);
      if (isReply(user)) return user;
      const id = idParam(input);
      const noteId = idParam(input, "note_id");
      if (id === null || !(await loadOrder(input.services, id))) return invalidParentOrder();
      const note = noteId === null ? null : await admin.findNote(input.services.db, id, noteId);
      return note ? json(noteJson(note)) : invalidResource();
    });

    rest.register("POST", "wc/v3/orders/:id/notes", async (input) => {
      const user = await guard(input, WC_DENIED.create);
      if (isReply(user)) return user;
      const args = parseArgs(
        z.object({ note: z.string().trim().min(1).max(10_000), customer_note: restBool().default(false), added_by_user: restBool().default(false) }),
        requestArgs(input),
      );
      if (!args.ok) return args.reply;
      const id = idParam(input);
      if (id === null || !(await loadOrder(input.services, id))) return invalidParentOrder();
      const noteId = await addOrderNote(deps(input.services), id, args.data.note, args.data.customer_note, user.id);
      await audit(input, user, {
        action: "create",
        objectType: "order_note",
        objectId: noteId,
        changes: { order_id: id, customer_note: args.data.customer_note },
      });
      return json(noteJson((await admin.findNote(input.services.db, id, noteId))!), 201);
    });

    rest.register("DELETE", "wc/v3/orders/:id/notes/:note_id", async (input) => {
      const user = await guard(input, WC_DENIED.delete);
      if (isReply(user)) return user;
      const args = parseArgs(z.object({ force: restBool().default(false) }).loose(), requestArgs(input));
      if (!args.ok) return args.reply;
      const id = idParam(input);
      const noteId = idParam(input, "note_id");
      if (id === null || !(await loadOrder(input.services, id))) return invalidParentOrder();
      const note = noteId === null ? null : await admin.findNote(input.services.db, id, noteId);
      if (!note) return invalidResource();
      if (!args.data.force) return trashNotSupported("order note");
      await admin.deleteNote(input.services.db, id, note.id);
      await audit(input, user, { action: "delete", objectType: "order_note", objectId: note.id, changes: { order_id: id } });
      return json(noteJson(note));
    });

    // ── actions ────────────────────────────────────────────────────────────────────────────────────────────────

    // WooCommerce 9.5's "Send order details to customer": the order e-mail queued again (docs/contract/rest/orders.md
    // 'Order actions'). The shop never changes the billing address here, so `email` is refused rather than ignored.
    rest.register("POST", "wc/v3/orders/:id/actions/send_order_details", async (input) => {
      const user = await guard(input, WC_DENIED.edit);
      if (isReply(user)) return user;
      const raw = requestArgs(input);
      if (raw.email !== undefined || raw.force_email_update !== undefined) {
        return restError("rest_invalid_param", "Invalid parameter(s): email", 400, {
          params: { email: "The billing e-mail is changed by updating the order, not here." },
        });
      }
      const id = idParam(input);
      let sentTo: string | null;
      try {
        sentTo = id === null ? null : await sendOrderDetails(deps(input.services), id, user.id);
      } catch (e) {
        return adminError(e);
      }
      if (sentTo === null) return invalidOrder();
      await audit(input, user, { action: "send_order_details", objectType: "order", objectId: id!, changes: {} });
      return json({ message: `Order details sent to ${sentTo}, via REST API.` });
    });

    // ── refunds ────────────────────────────────────────────────────────────────────────────────────────────────

    rest.register("GET", "wc/v3/orders/:id/refunds", async (input) => {
      const user = await guard(input, WC_DENIED.list);
      if (isReply(user)) return user;
      const args = parseArgs(z.object({ page: listArgs.page, per_page: listArgs.per_page, context: listArgs.context }).loose(), requestArgs(input));
      if (!args.ok) return args.reply;
      const id = idParam(input);
      const o = id === null ? null : await loadOrder(input.services, id);
      if (!o) return invalidParentOrder();
      const all = await admin.listRefunds(input.services.db, o.id);
      const { page, per_page } = args.data;
      return pagedJson(
        input.req,
        all.slice((page - 1) * per_page, page * per_page).map((r) => refundJson(r, o)),
        all.length,
        page,
        per_page,
      );
    });

    rest.register("GET", "wc/v3/orders/:id/refunds/:refund_id", async (input) => {
      const user = await guard(input, WC_DENIED.view);
      if (isReply(user)) return user;
      const id = idParam(input);
      const o = id === null ? null : await loadOrder(input.services, id);
      if (!o) return invalidParentOrder();
      const refundId = idParam(input, "refund_id");
      const r = refundId === null ? null : await admin.findRefund(input.services.db, o.id, refundId);
      return r ? json(refundJson(r, o)) : invalidResource();
    });

    rest.register("POST", "wc/v3/orders/:id/refunds", async (input) => {
      const user = await guard(input, WC_DENIED.create);
      if (isReply(user)) return user;
      const header = input.req.get("Idempotency-Key");
      const args = parseArgs(
        z.object({
          amount: moneyArg().optional(),
          reason: z.string().max(1000).default(""),
          line_items: z
            .array(z.object({ id: restInt(1), quantity: restInt(0, 10_000).default(0), refund_total: moneyArg().default(0) }))
            .max(100)
            .default([]),
          api_refund: restBool().default(true),
          api_restock: restBool().optional(),
          restock_items: restBool().optional(),
          idempotency_key: z
            .string()
            .regex(/^[\w.:-]{1,100}$/, "must be 1 to 100 letters, digits, '.', ':', '_' or '-'")
            .optional(),
        }),
        { ...requestArgs(input), ...(header !== undefined ? { idempotency_key: header } : {}) },
      );
      if (!args.ok) return args.reply;
      const a = args.data;
      const id = idParam(input);
      if (id === null || !(await loadOrder(input.services, id))) return invalidParentOrder();
      let outcome;
      try {
        outcome = await refundOrder(
          deps(input.services),
          id,
          {
            amount: a.amount ?? null,
            reason: a.reason,
            lineItems: a.line_items.map((l) => ({ id: l.id, quantity: l.quantity, refund_total: l.refund_total })),
            // WooCommerce's api_restock (default true), or the older restock_items.
            restock: a.api_restock ?? a.restock_items ?? true,
            apiRefund: a.api_refund,
            key: a.idempotency_key ?? null,
          },
          user.id,
        );
      } catch (e) {
        return adminError(e);
      }
      if (!outcome.replay) {
        await audit(input, user, {
          action: "refund",
          objectType: "order",
          objectId: id,
          changes: { refund_id: outcome.refund.id, amount: outcome.refund.amount, api_refund: outcome.refund.apiRefund, restock: outcome.refund.restock },
        });
      }
      return json(refundJson(outcome.refund, await loadOrder(input.services, id)), outcome.replay ? 200 : 201);
    });

    rest.register("DELETE", "wc/v3/orders/:id/refunds/:refund_id", async (input) => {
      const user = await guard(input, WC_DENIED.delete);
      if (isReply(user)) return user;
      const args = parseArgs(z.object({ force: restBool().default(false) }).loose(), requestArgs(input));
      if (!args.ok) return args.reply;
      const id = idParam(input);
      const o = id === null ? null : await loadOrder(input.services, id);
      if (!o) return invalidParentOrder();
      const refundId = idParam(input, "refund_id");
      const existing = refundId === null ? null : await admin.findRefund(input.services.db, o.id, refundId);
      if (!existing) return invalidResource();
      if (!args.data.force) return trashNotSupported("refund");
      try {
        await deleteManualRefund(deps(input.services), o.id, existing.id);
      } catch (e) {
        return adminError(e);
      }
      await audit(input, user, { action: "delete", objectType: "order_refund", objectId: existing.id, changes: { order_id: o.id, amount: existing.amount } });
      return json(refundJson(existing, o));
    });
  },
};
