-- Per-user settings as WordPress keeps them (wp_usermeta): a key and a text value per account. Only keys the shop
-- registers may be written (core/domain/users/meta.ts), through the REST API's `meta` object
-- (docs/contract/wire.md §2 'Users'). The first is the coming-soon banner's dismissal.
CREATE TABLE user_meta (
  customer_id integer NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  meta_key    text NOT NULL,
  meta_value  text NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_id, meta_key)
);
