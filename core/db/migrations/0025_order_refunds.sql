-- The staff REST API for orders, refunds and coupons (docs/contract/rest/orders.md, decision 0022).

-- A refund of an order. Written 'pending' BEFORE the gateway is called, under the order's row lock, so the sum of
-- pending and completed refunds never exceeds the order's total however many refunds run at once; the gateway's
-- idempotency key is derived from the row, so a retry of the same request (same order and idempotency_key)
-- resumes it and never moves money twice. A refund the gateway refuses is deleted: it changed nothing.
CREATE TABLE order_refunds (
  id                serial PRIMARY KEY,
  order_id          integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  amount            integer NOT NULL CHECK (amount > 0),
  reason            text NOT NULL DEFAULT '',
  refunded_by       integer REFERENCES customers (id) ON DELETE SET NULL,
  api_refund        boolean NOT NULL,
  restock           boolean NOT NULL,
  line_items        jsonb NOT NULL DEFAULT '[]'::jsonb,  -- [{id, quantity, refund_total}] in cents
  idempotency_key   text NOT NULL,
  request_hash      text NOT NULL,                       -- the same key for a different request is refused
  status            text NOT NULL CHECK (status IN ('pending', 'completed')),
  gateway_refund_id text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  completed_at      timestamptz,
  UNIQUE (order_id, idempotency_key)
);
CREATE INDEX order_refunds_order_idx ON order_refunds (order_id, id);

-- Units of an order's stock given back (a refund's restock, a cancellation after payment): never more than taken.
ALTER TABLE order_stock ADD COLUMN restocked integer NOT NULL DEFAULT 0;
ALTER TABLE order_stock ADD CONSTRAINT order_stock_restocked_check CHECK (restocked >= 0 AND restocked <= quantity);

-- WooCommerce's order notes: a note to the customer (e-mailed) or a private one, and who added it.
ALTER TABLE order_notes ADD COLUMN customer_note boolean NOT NULL DEFAULT false;
ALTER TABLE order_notes ADD COLUMN added_by integer REFERENCES customers (id) ON DELETE SET NULL;

-- Coupons get WooCommerce's numeric ids (wc/v3/coupons/{id}) and a modification time.
ALTER TABLE coupons ADD COLUMN id serial UNIQUE;
ALTER TABLE coupons ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

-- WooCommerce's created_via ('checkout', 'rest-api', 'store-api') and date_completed.
ALTER TABLE orders ADD COLUMN created_via text NOT NULL DEFAULT 'checkout';
ALTER TABLE orders ADD COLUMN completed_at timestamptz;
