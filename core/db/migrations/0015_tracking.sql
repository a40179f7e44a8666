-- Shopper-action tracking on the server (docs/contract/wire.md §6, decision 0015).

-- Server-side events waiting for (or done with) delivery to one configured destination each: the durable outbox
-- the delivery worker (core/tracking/delivery.ts) drains, with the mail outbox's lease and back-off columns.
-- dedupe_key makes a second copy of one event a no-op: '<destination>:<event id>', and for a Purchase
-- '<destination>:order:<order id>', so an order's Purchase is queued (and sent) once whatever the browser repeats.
CREATE TABLE tracking_outbox (
  id              bigserial PRIMARY KEY,
  destination     text NOT NULL CHECK (destination IN ('capi', 'mp')),
  dedupe_key      text NOT NULL UNIQUE,
  event_name      text NOT NULL,
  event_id        text NOT NULL,
  order_id        integer REFERENCES orders (id) ON DELETE SET NULL,
  payload         jsonb NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  attempts        integer NOT NULL DEFAULT 0,
  last_error      text,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until   timestamptz,
  sent_at         timestamptz,
  failed_at       timestamptz
);
CREATE INDEX tracking_outbox_pending_idx ON tracking_outbox (next_attempt_at, id) WHERE sent_at IS NULL AND failed_at IS NULL;

-- The owner's first-party funnel: what the shop itself saw, one row per step, no cookie and no person. visitor is
-- a hash of address + user agent under that day's salt (funnel_salts), so one visitor cannot be followed across
-- days and no row names anyone.
CREATE TABLE funnel_events (
  id       bigserial PRIMARY KEY,
  at       timestamptz NOT NULL,
  day      date NOT NULL,
  step     text NOT NULL CHECK (step IN ('view', 'add_to_cart', 'checkout', 'purchase')),
  visitor  text NOT NULL,
  source   text NOT NULL,
  medium   text NOT NULL,
  campaign text NOT NULL,
  order_id integer,
  revenue  integer NOT NULL DEFAULT 0 CHECK (revenue >= 0),
  currency text
);
CREATE INDEX funnel_events_day_idx ON funnel_events (day, step);
-- An order is one purchase, however often its placing is reported.
CREATE UNIQUE INDEX funnel_events_purchase_key ON funnel_events (order_id) WHERE step = 'purchase';

-- One random salt per UTC day, shared by every process; salts older than yesterday are deleted, after which that
-- day's visitor hashes can no longer be recomputed from an address.
CREATE TABLE funnel_salts (
  day  date PRIMARY KEY,
  salt text NOT NULL
);
