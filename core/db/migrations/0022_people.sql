-- People over the staff REST API (docs/contract/rest/people.md): the parts of a WordPress user the `customers`
-- table lacked. `username` is WordPress's user_login (null for accounts made before it: they show their e-mail
-- address), `nicename` its user_nicename (the public slug; null shows `user-<id>`), `updated_at` WooCommerce's
-- date_modified. Posts gain the id of their author, so "users with published posts" (the authors a guest may
-- list) can be asked; IF NOT EXISTS because the posts routes may bring the same column.
ALTER TABLE customers
  ADD COLUMN username    text,
  ADD COLUMN nicename    text,
  ADD COLUMN url         text NOT NULL DEFAULT '',
  ADD COLUMN description text NOT NULL DEFAULT '',
  ADD COLUMN nickname    text NOT NULL DEFAULT '',
  ADD COLUMN locale      text NOT NULL DEFAULT '',
  ADD COLUMN updated_at  timestamptz NOT NULL DEFAULT now();
UPDATE customers SET updated_at = created_at;
CREATE UNIQUE INDEX customers_username_key ON customers (lower(username)) WHERE username IS NOT NULL;
CREATE UNIQUE INDEX customers_nicename_key ON customers (nicename) WHERE nicename IS NOT NULL;
CREATE INDEX customers_role_idx ON customers (role, id);

ALTER TABLE posts ADD COLUMN IF NOT EXISTS author_id integer REFERENCES customers (id) ON DELETE SET NULL;
CREATE INDEX IF NOT EXISTS posts_author_idx ON posts (author_id, status);
