-- Shipping zones (issue 14, docs/decisions/0037-shipping-zones.md): a zone is a name, the regions it covers (countries,
-- states as 'US:CA', postcodes, prefixes 'SW1*' or ranges '90210...90299') and its ordered methods. A cart shipped to
-- an address gets the methods of the first zone (by position) one of whose regions it is in, else those of zone 0,
-- "Locations not covered by your other zones" (the rest of the world), which always exists and cannot be deleted.
-- Every shipping method that existed before belongs to zone 0 (the column's default), so the rates of a shop that
-- never adds a zone are the same as before; the demo seed's methods, saved after this, land there too.
CREATE TABLE shipping_zones (
  id         integer PRIMARY KEY,
  name       text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  position   integer NOT NULL DEFAULT 0,
  regions    jsonb NOT NULL DEFAULT '[]',
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE SEQUENCE shipping_zone_ids START WITH 1;
ALTER TABLE shipping_zones ALTER COLUMN id SET DEFAULT nextval('shipping_zone_ids');
INSERT INTO shipping_zones (id, name, position) VALUES (0, 'Locations not covered by your other zones', 0);

ALTER TABLE shipping_methods ADD COLUMN zone_id integer NOT NULL DEFAULT 0 REFERENCES shipping_zones (id) ON DELETE CASCADE;
CREATE INDEX shipping_methods_zone_idx ON shipping_methods (zone_id, position);
