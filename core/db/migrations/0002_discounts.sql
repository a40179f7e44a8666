-- Discount rules, coupons and shipping methods as data. Each row's `data` is the
-- engine's own value (core/domain/pricing), validated by its zod schema on read
-- and on write, so the database never holds a rule the engine cannot evaluate.

CREATE TABLE discount_rules (
  code       text PRIMARY KEY,
  priority   integer NOT NULL,
  enabled    boolean NOT NULL DEFAULT true,
  data       jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE coupons (
  code       text PRIMARY KEY CHECK (code = lower(code)),
  data       jsonb NOT NULL,
  -- Counted under a row lock when an order is placed, so a limit holds under concurrency.
  usage_count integer NOT NULL DEFAULT 0 CHECK (usage_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE coupon_usages (
  coupon_code text NOT NULL REFERENCES coupons (code) ON DELETE CASCADE,
  customer_key text NOT NULL,          -- 'c:<customer id>' or 'e:<lower-cased billing e-mail>'
  order_id    integer,
  used_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX coupon_usages_idx ON coupon_usages (coupon_code, customer_key);

CREATE TABLE shipping_methods (
  id         text PRIMARY KEY,           -- WooCommerce rate id, e.g. flat_rate:1
  position   integer NOT NULL DEFAULT 0,
  data       jsonb NOT NULL
);
