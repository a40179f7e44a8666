-- The server-side cart. A guest's cart belongs to their session (and follows the
-- session id when it rotates at sign-in); a customer's cart belongs to the customer,
-- so it survives signing out and in on another device. Lines are keyed by the
-- WooCommerce-style cart_item_key, so adding the same thing twice adds quantity.

CREATE TABLE carts (
  id              serial PRIMARY KEY,
  session_id      text UNIQUE REFERENCES sessions (id) ON DELETE CASCADE ON UPDATE CASCADE,
  customer_id     integer UNIQUE REFERENCES customers (id) ON DELETE CASCADE,
  coupons         text[] NOT NULL DEFAULT '{}',   -- applied codes, in the order applied
  shipping_method text,                           -- chosen rate id, e.g. flat_rate:1
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK (session_id IS NOT NULL OR customer_id IS NOT NULL)
);

CREATE TABLE cart_items (
  cart_id      integer NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
  item_key     text NOT NULL,                      -- md5 of product, variation, attributes, item data
  product_id   integer NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  variation_id integer NOT NULL DEFAULT 0,
  variation    jsonb NOT NULL DEFAULT '{}'::jsonb, -- {"attribute_pa_color": "red"}
  item_data    jsonb NOT NULL DEFAULT '{}'::jsonb, -- bundle choice, download price option, free-item rule
  quantity     integer NOT NULL CHECK (quantity > 0),
  position     bigserial,
  PRIMARY KEY (cart_id, item_key)
);
