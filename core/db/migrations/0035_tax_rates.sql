-- Tax rates (issue 14, docs/decisions/0040-tax-rates.md): WooCommerce's standard rates. A rate applies to an address
-- whose country and state it names (or any, ''), and one of whose postcodes (exact, 'SW1*', '90210...90299') matches
-- when it lists any; the percentage is kept in ten-thousandths of a percent (20 % = 200000), WooCommerce's four
-- decimals exactly. Which rates apply and how they add up is core/domain/pricing/tax.ts; the switch ("Enable tax rates
-- and calculations") is a setting, off by default, so a shop that never turns it on charges what it charged before.
CREATE TABLE tax_rates (
  id         serial PRIMARY KEY,
  country    text NOT NULL DEFAULT '' CHECK (country ~ '^([A-Z]{2})?$'),
  state      text NOT NULL DEFAULT '' CHECK (char_length(state) <= 50),
  postcodes  jsonb NOT NULL DEFAULT '[]',
  rate       integer NOT NULL CHECK (rate BETWEEN 0 AND 10000000),
  name       text NOT NULL DEFAULT '' CHECK (char_length(name) <= 200),
  priority   integer NOT NULL DEFAULT 1 CHECK (priority BETWEEN 0 AND 1000),
  compound   boolean NOT NULL DEFAULT false,
  shipping   boolean NOT NULL DEFAULT true,
  position   integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tax_rates_order_idx ON tax_rates (priority, position, id);

-- What an order was charged in tax (0 for every order before this): its total and shipping share, one row per rate
-- ({rate_id, label, rate, compound, tax_total, shipping_tax_total}, WooCommerce's tax_lines), and each line's tax.
ALTER TABLE orders ADD COLUMN total_tax integer NOT NULL DEFAULT 0 CHECK (total_tax >= 0);
ALTER TABLE orders ADD COLUMN shipping_tax integer NOT NULL DEFAULT 0 CHECK (shipping_tax >= 0);
ALTER TABLE orders ADD COLUMN tax_lines jsonb NOT NULL DEFAULT '[]';
ALTER TABLE order_lines ADD COLUMN subtotal_tax integer NOT NULL DEFAULT 0 CHECK (subtotal_tax >= 0);
ALTER TABLE order_lines ADD COLUMN total_tax integer NOT NULL DEFAULT 0 CHECK (total_tax >= 0);
