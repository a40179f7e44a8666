/**
 * The discount rule editor's form (docs/contract/admin.md 'Discount rules'): a rule of `shop/v1/discount-rules` as the
 * inputs hold it (text), back to the rule the API checks with the engine's own schema, and the API's refusals mapped
 * to the inputs they name. Amounts are typed in the shop's currency and sent in cents; what does not read as a
 * number is sent as typed, so the API's refusal names the field (the API is the one judge).
 */
import type { BulkTier, DiscountRule, LineFilter, RuleActionKind, RuleCondition } from "../../core/domain/pricing/types.ts";

/** A rule as `GET shop/v1/discount-rules` answers it. */
export type RestRule = DiscountRule & { id: string; modified_gmt: string };

export const RULE_KINDS: { value: RuleActionKind; label: string }[] = [
  { value: "bulk", label: "Bulk (quantity tiers)" },
  { value: "product_percent", label: "Percentage off products" },
  { value: "product_fixed", label: "Fixed amount off each unit" },
  { value: "cart_percent", label: "Percentage off the cart" },
  { value: "cart_fixed", label: "Fixed amount off the cart" },
  { value: "free_shipping", label: "Free shipping" },
  { value: "buy_x_get_y", label: "Buy X, get Y (BOGO)" },
];
export const kindLabel = (kind: string) => RULE_KINDS.find((k) => k.value === kind)?.label ?? kind;

export const TIER_TYPES: { value: BulkTier["type"]; label: string }[] = [
  { value: "percent", label: "Percentage off" },
  { value: "fixed_per_unit", label: "Amount off each unit" },
  { value: "fixed_unit_price", label: "Fixed price each" },
  { value: "fixed_total", label: "Fixed price for the set" },
];

export const COUNT_BY = [
  { value: "product", label: "Each product (its variations together)" },
  { value: "variation", label: "Each variation" },
  { value: "matched", label: "All matching products together" },
  { value: "cart", label: "The whole cart" },
] as const;

export interface TierForm {
  min: string;
  max: string;
  type: BulkTier["type"];
  value: string;
  label: string;
}

export interface RuleForm {
  code: string;
  title: string;
  priority: string;
  enabled: boolean;
  stacking: "exclusive" | "combinable";
  /** `YYYY-MM-DDTHH:mm`, UTC; empty: no bound. */
  from: string;
  to: string;
  kind: RuleActionKind;
  countBy: (typeof COUNT_BY)[number]["value"];
  tiers: TierForm[];
  percent: string;
  amount: string;
  maxDiscount: string;
  buyQuantity: string;
  getProductId: string;
  choosable: number[];
  defaultProductId: string;
  getQuantity: string;
  recursive: boolean;
  discountPercent: string;
  products: number[];
  excludeProducts: boolean;
  categories: string[];
  excludeCategories: boolean;
  onSale: "any" | "only" | "not";
  /** Filters the form has no inputs for (variations, categories by id): kept as they are. */
  otherFilters: LineFilter[];
  subtotalMin: string;
  subtotalMax: string;
  quantityMin: string;
  quantityMax: string;
  matchedMin: string;
  matchedMax: string;
  loggedIn: "any" | "yes" | "no";
  usageLimit: string;
  usageLimitPerCustomer: string;
}

export const NEW_TIER: TierForm = { min: "", max: "", type: "percent", value: "", label: "" };

export const EMPTY_RULE: RuleForm = {
  code: "",
  title: "",
  priority: "10",
  enabled: false,
  stacking: "combinable",
  from: "",
  to: "",
  kind: "bulk",
  countBy: "product",
  tiers: [{ ...NEW_TIER }],
  percent: "",
  amount: "",
  maxDiscount: "",
  buyQuantity: "1",
  getProductId: "",
  choosable: [],
  defaultProductId: "",
  getQuantity: "1",
  recursive: false,
  discountPercent: "100",
  products: [],
  excludeProducts: false,
  categories: [],
  excludeCategories: false,
  onSale: "any",
  otherFilters: [],
  subtotalMin: "",
  subtotalMax: "",
  quantityMin: "",
  quantityMax: "",
  matchedMin: "",
  matchedMax: "",
  loggedIn: "any",
  usageLimit: "",
  usageLimitPerCustomer: "",
};

const text = (n: number | undefined) => (n === undefined ? "" : String(n));
const moneyText = (cents: number | undefined) => (cents === undefined ? "" : (cents / 100).toFixed(2));
const minuteOf = (iso: string | undefined) => (iso ? new Date(iso).toISOString().slice(0, 16) : "");

export function formOf(rule: DiscountRule): RuleForm {
  const f: RuleForm = { ...EMPTY_RULE, tiers: [], otherFilters: [] };
  f.code = rule.code;
  f.title = rule.title;
  f.priority = String(rule.priority);
  f.enabled = rule.enabled;
  f.stacking = rule.stacking;
  f.from = minuteOf(rule.schedule?.from);
  f.to = minuteOf(rule.schedule?.to);
  const a = rule.action;
  f.kind = a.kind;
  if (a.kind === "bulk") {
    f.countBy = a.countBy;
    f.tiers = a.tiers.map((t) => ({
      min: String(t.min),
      max: text(t.max),
      type: t.type,
      value: t.type === "percent" ? String(t.value) : moneyText(t.value),
      label: t.label ?? "",
    }));
  }
  if (f.tiers.length === 0) f.tiers = [{ ...NEW_TIER }];
  if (a.kind === "product_percent" || a.kind === "cart_percent") f.percent = String(a.percent);
  if (a.kind === "cart_percent") f.maxDiscount = moneyText(a.maxDiscount);
  if (a.kind === "product_fixed") f.amount = moneyText(a.amountPerUnit);
  if (a.kind === "cart_fixed") f.amount = moneyText(a.amount);
  if (a.kind === "buy_x_get_y") {
    f.buyQuantity = String(a.buyQuantity);
    f.getProductId = String(a.getProductId);
    f.choosable = [...a.choosableProductIds];
    f.defaultProductId = text(a.defaultProductId);
    f.getQuantity = String(a.getQuantity);
    f.recursive = a.recursive;
    f.discountPercent = String(a.discountPercent);
  }
  for (const filter of rule.filters) {
    if (filter.type === "products" && f.products.length === 0) {
      f.products = [...filter.productIds];
      f.excludeProducts = Boolean(filter.exclude);
    } else if (filter.type === "categories" && !filter.categoryIds?.length && f.categories.length === 0) {
      f.categories = [...(filter.categorySlugs ?? [])];
      f.excludeCategories = Boolean(filter.exclude);
    } else if (filter.type === "on_sale" && f.onSale === "any") f.onSale = filter.onSale ? "only" : "not";
    else f.otherFilters.push(filter);
  }
  for (const c of rule.conditions) {
    if (c.type === "cart_subtotal") [f.subtotalMin, f.subtotalMax] = [moneyText(c.min), moneyText(c.max)];
    if (c.type === "cart_quantity") [f.quantityMin, f.quantityMax] = [text(c.min), text(c.max)];
    if (c.type === "matched_quantity") [f.matchedMin, f.matchedMax] = [text(c.min), text(c.max)];
    if (c.type === "customer_logged_in") f.loggedIn = c.loggedIn ? "yes" : "no";
    if (c.type === "usage_limit") f.usageLimit = String(c.max);
    if (c.type === "usage_limit_per_customer") f.usageLimitPerCustomer = String(c.max);
  }
  return f;
}

/** A whole number, or the text as typed (the API refuses it at its field). */
const int = (s: string): number | string | undefined => (s.trim() === "" ? undefined : /^-?\d+$/.test(s.trim()) ? Number(s.trim()) : s);
/** Cents of an amount typed in the currency ("2.50" → 250), or the text as typed. */
const cents = (s: string): number | string | undefined =>
  s.trim() === "" ? undefined : /^\d+(\.\d{1,2})?$/.test(s.trim()) ? Math.round(Number(s.trim()) * 100) : s;
const decimal = (s: string): number | string | undefined => (s.trim() === "" ? undefined : /^\d+(\.\d+)?$/.test(s.trim()) ? Number(s.trim()) : s);
const instant = (s: string) => (s ? `${s}:00Z` : undefined);
const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/**
 * The rule the form describes, in the API's shape, and which form inputs each filter and condition came from (in the
 * order sent), so a refusal naming `conditions[1].max` lands on its input.
 */
export function ruleOf(f: RuleForm): { rule: Record<string, unknown>; filterKeys: string[]; conditionKeys: [string, string][] } {
  const action = (() => {
    switch (f.kind) {
      case "bulk":
        return {
          kind: "bulk",
          countBy: f.countBy,
          tiers: f.tiers.map((t) =>
            defined({
              min: int(t.min) ?? "",
              max: int(t.max),
              type: t.type,
              value: (t.type === "percent" ? decimal : cents)(t.value) ?? "",
              label: t.label || undefined,
            }),
          ),
        };
      case "product_percent":
        return { kind: f.kind, percent: decimal(f.percent) ?? "" };
      case "cart_percent":
        return defined({ kind: f.kind, percent: decimal(f.percent) ?? "", maxDiscount: cents(f.maxDiscount) });
      case "product_fixed":
        return { kind: f.kind, amountPerUnit: cents(f.amount) ?? "" };
      case "cart_fixed":
        return { kind: f.kind, amount: cents(f.amount) ?? "" };
      case "free_shipping":
        return { kind: f.kind };
      case "buy_x_get_y":
        return defined({
          kind: f.kind,
          buyQuantity: int(f.buyQuantity) ?? "",
          getProductId: int(f.getProductId) ?? "",
          choosableProductIds: f.choosable,
          defaultProductId: int(f.defaultProductId),
          getQuantity: int(f.getQuantity) ?? "",
          recursive: f.recursive,
          discountPercent: decimal(f.discountPercent) ?? "",
        });
    }
  })();
  const filters: unknown[] = [];
  const filterKeys: string[] = [];
  if (f.products.length) {
    filters.push({ type: "products", productIds: f.products, ...(f.excludeProducts ? { exclude: true } : {}) });
    filterKeys.push("products");
  }
  if (f.categories.length) {
    filters.push({ type: "categories", categorySlugs: f.categories, ...(f.excludeCategories ? { exclude: true } : {}) });
    filterKeys.push("categories");
  }
  if (f.onSale !== "any") {
    filters.push({ type: "on_sale", onSale: f.onSale === "only" });
    filterKeys.push("onSale");
  }
  for (const other of f.otherFilters) {
    filters.push(other);
    filterKeys.push("products");
  }
  const conditions: unknown[] = [];
  const conditionKeys: [string, string][] = [];
  const range = (type: RuleCondition["type"], min: string, max: string, keys: [string, string], read: (s: string) => unknown) => {
    if (!min.trim() && !max.trim()) return;
    conditions.push(defined({ type, min: read(min), max: read(max) }));
    conditionKeys.push(keys);
  };
  range("cart_subtotal", f.subtotalMin, f.subtotalMax, ["subtotalMin", "subtotalMax"], cents);
  range("cart_quantity", f.quantityMin, f.quantityMax, ["quantityMin", "quantityMax"], int);
  range("matched_quantity", f.matchedMin, f.matchedMax, ["matchedMin", "matchedMax"], int);
  if (f.loggedIn !== "any") {
    conditions.push({ type: "customer_logged_in", loggedIn: f.loggedIn === "yes" });
    conditionKeys.push(["loggedIn", "loggedIn"]);
  }
  if (f.usageLimit.trim()) {
    conditions.push({ type: "usage_limit", max: int(f.usageLimit) });
    conditionKeys.push(["usageLimit", "usageLimit"]);
  }
  if (f.usageLimitPerCustomer.trim()) {
    conditions.push({ type: "usage_limit_per_customer", max: int(f.usageLimitPerCustomer) });
    conditionKeys.push(["usageLimitPerCustomer", "usageLimitPerCustomer"]);
  }
  const schedule = defined({ from: instant(f.from), to: instant(f.to) });
  const rule = {
    code: f.code.trim(),
    title: f.title.trim(),
    priority: int(f.priority) ?? "",
    enabled: f.enabled,
    ...(Object.keys(schedule).length ? { schedule } : {}),
    filters,
    conditions,
    action,
    stacking: f.stacking,
  };
  return { rule, filterKeys, conditionKeys };
}

const ACTION_FIELDS: Record<string, string> = {
  kind: "kind",
  countBy: "countBy",
  tiers: "tiers",
  percent: "percent",
  amountPerUnit: "amount",
  amount: "amount",
  maxDiscount: "maxDiscount",
  buyQuantity: "buyQuantity",
  getProductId: "getProductId",
  choosableProductIds: "choosable",
  defaultProductId: "defaultProductId",
  getQuantity: "getQuantity",
  recursive: "recursive",
  discountPercent: "discountPercent",
};

/** A message without its field path, as a sentence ("max must be at least min" → "Must be at least the minimum."). */
function sentence(message: string): string {
  const m = message.replace(/^max must be at least min$/, "must be at least the minimum quantity").replace(/^(min|max|value|label|type) /, "");
  const s = m.replace(
    /^Too (big|small): expected (?:number|int) to be ([<>]=?)(\S+)$/,
    (_x, _b, op: string, n: string) => `must be ${op.startsWith("<") ? "at most" : "at least"} ${n}`,
  );
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}${/[.!]$/.test(s) ? "" : "."}`;
}

/**
 * The form inputs a refusal names: `data.params` of a rule save (`{action: "action.tiers[0].max …"}`, `{code: "code …"}`)
 * or of the simulator (`{rule: "rule.action…"}`); other simulator fields are left to the simulator.
 */
export function ruleFieldErrors(params: Record<string, string>, sent: ReturnType<typeof ruleOf>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [param, raw] of Object.entries(params)) {
    const message = raw.replace(/^rule\./, "");
    const name = param === "rule" ? (/^[a-zA-Z]+/.exec(message)?.[0] ?? "rule") : param;
    const path = /^([A-Za-z]+(?:\.[A-Za-z]+|\[\d+\])*)\s/.exec(message)?.[1] ?? name;
    const rest = message.slice(path.length).trim() || message;
    const parts = path.split(/\.|(?=\[)/).map((p) => (p.startsWith("[") ? Number(p.slice(1, -1)) : p));
    let key: string;
    if (parts[0] === "action") {
      if (parts[1] === "tiers" && typeof parts[2] === "number") key = `tiers.${parts[2]}.${typeof parts[3] === "string" ? parts[3] : "min"}`;
      else key = ACTION_FIELDS[String(parts[1])] ?? "kind";
    } else if (parts[0] === "schedule") key = parts[1] === "to" ? "to" : "from";
    else if (parts[0] === "filters") key = typeof parts[1] === "number" ? (sent.filterKeys[parts[1]] ?? "products") : "products";
    else if (parts[0] === "conditions") {
      const keys = typeof parts[1] === "number" ? sent.conditionKeys[parts[1]] : undefined;
      key = keys ? (parts[2] === "max" ? keys[1] : keys[0]) : "subtotalMin";
    } else key = String(parts[0] ?? name);
    out[key] ??= sentence(rest);
  }
  return out;
}
