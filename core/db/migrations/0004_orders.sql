-- Orders, payments and the account extras of checkout. Money is integer cents.
-- Card numbers and security codes are never stored: payment rows carry the gateway's token, brand, last four
-- digits and expiry only.

-- The order lifecycle as data: a status change is one conditional UPDATE that only succeeds along an allowed edge.
CREATE TABLE order_statuses (
  status text PRIMARY KEY,
  label  text NOT NULL
);
INSERT INTO order_statuses (status, label) VALUES
  ('pending', 'Pending payment'), ('processing', 'Processing'), ('on-hold', 'On hold'), ('completed', 'Completed'),
  ('cancelled', 'Cancelled'), ('refunded', 'Refunded'), ('failed', 'Failed');

CREATE TABLE order_status_transitions (
  from_status text NOT NULL REFERENCES order_statuses (status),
  to_status   text NOT NULL REFERENCES order_statuses (status),
  PRIMARY KEY (from_status, to_status)
);
INSERT INTO order_status_transitions (from_status, to_status) VALUES
  ('pending', 'processing'), ('pending', 'on-hold'), ('pending', 'failed'), ('pending', 'cancelled'),
  ('failed', 'pending'), ('failed', 'processing'), ('failed', 'cancelled'),
  ('on-hold', 'processing'), ('on-hold', 'cancelled'),
  ('processing', 'completed'), ('processing', 'refunded'), ('processing', 'cancelled'),
  ('completed', 'refunded');

CREATE TABLE orders (
  id                    serial PRIMARY KEY,
  order_key             text NOT NULL UNIQUE,           -- 'wc_order_…', the guest's proof of ownership in URLs
  status                text NOT NULL DEFAULT 'pending' REFERENCES order_statuses (status),
  customer_id           integer REFERENCES customers (id) ON DELETE SET NULL,
  billing_email         text NOT NULL,
  currency              text NOT NULL,
  subtotal              integer NOT NULL CHECK (subtotal >= 0),
  discount_total        integer NOT NULL CHECK (discount_total >= 0),
  shipping_total        integer NOT NULL CHECK (shipping_total >= 0),
  total                 integer NOT NULL CHECK (total >= 0),
  shipping_method_id    text,
  shipping_method_title text,
  payment_method        text NOT NULL,
  payment_method_title  text NOT NULL DEFAULT '',
  customer_note         text NOT NULL DEFAULT '',
  stock_held            boolean NOT NULL DEFAULT true,  -- stock taken for this order and not given back
  checkout_key          text,                           -- the idempotency claim the order came from (a retry after a decline reuses it)
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  paid_at               timestamptz
);
CREATE INDEX orders_customer_idx ON orders (customer_id, created_at DESC);
CREATE INDEX orders_checkout_key_idx ON orders (checkout_key);

CREATE TABLE order_addresses (
  order_id   integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  kind       text NOT NULL CHECK (kind IN ('billing', 'shipping')),
  first_name text NOT NULL DEFAULT '',
  last_name  text NOT NULL DEFAULT '',
  company    text NOT NULL DEFAULT '',
  address_1  text NOT NULL DEFAULT '',
  address_2  text NOT NULL DEFAULT '',
  city       text NOT NULL DEFAULT '',
  state      text NOT NULL DEFAULT '',
  postcode   text NOT NULL DEFAULT '',
  country    text NOT NULL DEFAULT '',
  email      text NOT NULL DEFAULT '',
  phone      text NOT NULL DEFAULT '',
  PRIMARY KEY (order_id, kind)
);

CREATE TABLE order_lines (
  id           serial PRIMARY KEY,
  order_id     integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  product_id   integer NOT NULL,
  variation_id integer,
  name         text NOT NULL,
  quantity     integer NOT NULL CHECK (quantity > 0),
  subtotal     integer NOT NULL CHECK (subtotal >= 0),   -- before discounts
  total        integer NOT NULL CHECK (total >= 0),      -- after discounts
  stock_taken  integer NOT NULL DEFAULT 0               -- units taken from managed stock (0 when not managed)
);
CREATE INDEX order_lines_order_idx ON order_lines (order_id);

CREATE TABLE order_coupons (
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  code     text NOT NULL,
  discount integer NOT NULL CHECK (discount >= 0),
  PRIMARY KEY (order_id, code)
);

-- Order meta, e.g. _wc_order_attribution_source_type (docs/contract/wire.md §4.5).
CREATE TABLE order_meta (
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  key      text NOT NULL,
  value    text NOT NULL,
  PRIMARY KEY (order_id, key)
);

CREATE TABLE order_notes (
  id         serial PRIMARY KEY,
  order_id   integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  note       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per submitted checkout (nonce + per-page checkout token): claimed before anything else, so a double
-- click, a retry or a second tab finds the claim and never creates a second order or a second charge.
CREATE TABLE checkout_claims (
  key        text PRIMARY KEY,
  status     text NOT NULL CHECK (status IN ('processing', 'done', 'failed')),
  attempt    integer NOT NULL DEFAULT 1,
  order_id   integer REFERENCES orders (id) ON DELETE SET NULL,
  result     jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Written BEFORE the gateway is called; the reconciler finishes every row left in 'started' / 'authorized'.
CREATE TABLE payment_attempts (
  id              serial PRIMARY KEY,
  order_id        integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  idempotency_key text NOT NULL UNIQUE,
  gateway         text NOT NULL,
  operation       text NOT NULL CHECK (operation IN ('authorize_capture', 'charge_token', 'echeck_debit')),
  amount          integer NOT NULL CHECK (amount >= 0),
  currency        text NOT NULL,
  status          text NOT NULL CHECK (status IN ('started', 'authorized', 'captured', 'voided', 'declined', 'failed')),
  auth_id         text,
  charge_id       text,
  method          jsonb,                                -- brand, last four, expiry: never the number
  error_code      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_attempts_open_idx ON payment_attempts (status, updated_at) WHERE status IN ('started', 'authorized');

CREATE TABLE payment_tokens (
  id          serial PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  gateway_id  text NOT NULL,                            -- e.g. sandbox_credit_card, sandbox_echeck
  token       text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('card', 'bank')),
  brand       text NOT NULL DEFAULT '',
  last4       text NOT NULL CHECK (last4 ~ '^[0-9]{2,4}$'),
  exp_month   integer,
  exp_year    integer,
  is_default  boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (gateway_id, token)
);
CREATE INDEX payment_tokens_customer_idx ON payment_tokens (customer_id, id);

-- The sandbox processor's own state (core/payments/sql-store.server.ts), so it survives a restart like a real
-- processor would.
CREATE TABLE sandbox_keys (
  key          text PRIMARY KEY,
  state        text NOT NULL CHECK (state IN ('pending', 'done')),
  operation    text NOT NULL,
  fingerprint  text NOT NULL,
  claim_id     text NOT NULL,
  claimed_at   bigint NOT NULL,
  result       jsonb,
  completed_at bigint
);

CREATE TABLE sandbox_records (
  id      text PRIMARY KEY,
  type    text NOT NULL,
  version integer NOT NULL,
  data    jsonb NOT NULL
);

-- Order and account e-mails; a sender delivers them through SMTP when one is configured.
CREATE TABLE email_outbox (
  id         serial PRIMARY KEY,
  kind       text NOT NULL,
  to_address text NOT NULL,
  subject    text NOT NULL,
  body       text NOT NULL,
  order_id   integer REFERENCES orders (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at    timestamptz
);

-- Failed logins and e-mail checks, for the per-account and per-address limits.
CREATE TABLE auth_events (
  id      bigserial PRIMARY KEY,
  kind    text NOT NULL,                                 -- 'login_failed' | 'user_check'
  scope   text NOT NULL CHECK (scope IN ('account', 'address', 'session')),
  subject text NOT NULL,
  at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_events_idx ON auth_events (kind, scope, subject, at);

CREATE TABLE password_resets (
  token_hash  text PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
