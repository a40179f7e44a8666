-- Downloadable products' files and the shoppers' permission to download them (issue 14,
-- docs/decisions/0041-downloadable-products.md).
--
-- download_files: files uploaded for downloadable products. Unlike images (media, 0026) they are kept under
-- DATA_DIR/woocommerce_uploads, which no route serves: the only way to a file's bytes is a download link checked
-- against download_permissions. `file` is the storage key (YYYY/MM/name.ext), `name` the uploaded file's name.
CREATE TABLE download_files (
  id         serial PRIMARY KEY,
  file       text NOT NULL UNIQUE,
  name       text NOT NULL,
  mime       text NOT NULL,
  filesize   integer NOT NULL CHECK (filesize >= 0),
  author_id  integer REFERENCES customers (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX download_files_created_idx ON download_files (created_at DESC, id DESC);

-- WooCommerce's wc_downloadable_product_permissions: one row per file of a paid order's line. Granted when the
-- order becomes processing or completed (once: the UNIQUE key), removed when it is cancelled or refunded.
-- downloads_remaining NULL = unlimited; access_expires NULL = never.
CREATE TABLE download_permissions (
  id                  serial PRIMARY KEY,
  download_id         text NOT NULL,
  product_id          integer NOT NULL,
  order_id            integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  order_key           text NOT NULL,
  customer_id         integer REFERENCES customers (id) ON DELETE SET NULL,
  user_email          text NOT NULL,
  downloads_remaining integer CHECK (downloads_remaining >= 0),
  access_granted      timestamptz NOT NULL DEFAULT now(),
  access_expires      timestamptz,
  download_count      integer NOT NULL DEFAULT 0 CHECK (download_count >= 0),
  UNIQUE (order_id, product_id, download_id)
);
CREATE INDEX download_permissions_customer_idx ON download_permissions (customer_id) WHERE customer_id IS NOT NULL;
CREATE INDEX download_permissions_key_idx ON download_permissions (order_key, product_id);
