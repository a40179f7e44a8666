-- The products REST API (wc/v3/products, docs/contract/rest/products.md).

-- WooCommerce's post statuses: 'pending' (awaiting review) and 'trash' (a DELETE without force=true). The storefront
-- shows 'publish' only, as before.
ALTER TABLE products DROP CONSTRAINT products_status_check;
ALTER TABLE products ADD CONSTRAINT products_status_check CHECK (status IN ('publish', 'draft', 'pending', 'private', 'trash'));
ALTER TABLE variations DROP CONSTRAINT variations_status_check;
ALTER TABLE variations ADD CONSTRAINT variations_status_check CHECK (status IN ('publish', 'draft', 'pending', 'private'));

-- date_modified, and WooCommerce's fields the storefront does not use (weight, dimensions, sale dates, tax and
-- shipping classes, purchase note, meta_data, virtual): kept as the API wrote them so integrations read them back.
ALTER TABLE products ADD COLUMN modified_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE products ADD COLUMN rest_fields jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE variations ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE variations ADD COLUMN modified_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE variations ADD COLUMN description text NOT NULL DEFAULT '';
ALTER TABLE variations ADD COLUMN rest_fields jsonb NOT NULL DEFAULT '{}'::jsonb;

-- The API lists every status, newest first (the storefront's indexes all start with status).
CREATE INDEX products_created_all_idx ON products (created_at DESC, id DESC);
