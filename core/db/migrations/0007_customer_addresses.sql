-- A customer's saved billing and shipping addresses (My account → Addresses); they pre-fill the checkout.
CREATE TABLE customer_addresses (
  customer_id integer NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('billing', 'shipping')),
  first_name  text NOT NULL DEFAULT '',
  last_name   text NOT NULL DEFAULT '',
  company     text NOT NULL DEFAULT '',
  address_1   text NOT NULL DEFAULT '',
  address_2   text NOT NULL DEFAULT '',
  city        text NOT NULL DEFAULT '',
  state       text NOT NULL DEFAULT '',
  postcode    text NOT NULL DEFAULT '',
  country     text NOT NULL DEFAULT '',
  email       text NOT NULL DEFAULT '',
  phone       text NOT NULL DEFAULT '',
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_id, kind)
);
