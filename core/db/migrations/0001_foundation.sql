-- Foundation: sessions, customers, the catalogue (WordPress-like terms), media, reviews, blog.
-- Money is integer cents everywhere.

CREATE TABLE customers (
  id            serial PRIMARY KEY,
  email         text NOT NULL,
  password_hash text,
  first_name    text NOT NULL DEFAULT '',
  last_name     text NOT NULL DEFAULT '',
  display_name  text NOT NULL DEFAULT '',
  role          text NOT NULL DEFAULT 'customer' CHECK (role IN ('customer', 'shop_manager', 'administrator')),
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX customers_email_key ON customers (lower(email));

CREATE TABLE sessions (
  id          text PRIMARY KEY,               -- random, 32 hex chars; only its HMAC'd form is in the cookie
  customer_id integer REFERENCES customers (id) ON DELETE CASCADE,
  data        jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

CREATE TABLE media (
  id         serial PRIMARY KEY,
  slug       text NOT NULL UNIQUE,
  mime       text NOT NULL,
  body       text NOT NULL,                   -- generated SVG markup (no downloads)
  alt        text NOT NULL DEFAULT '',
  width      integer NOT NULL,
  height     integer NOT NULL
);

-- Products and variations share one id space, as in WooCommerce, so an add-to-cart
-- product_id that is really a variation can be recognised.
CREATE SEQUENCE catalog_ids;

CREATE TABLE products (
  id                integer PRIMARY KEY DEFAULT nextval('catalog_ids'),
  type              text NOT NULL CHECK (type IN ('simple', 'variable', 'grouped', 'bundle', 'external', 'downloadable')),
  slug              text NOT NULL UNIQUE,
  name              text NOT NULL,
  sku               text UNIQUE,
  status            text NOT NULL DEFAULT 'publish' CHECK (status IN ('publish', 'draft', 'private')),
  short_description text NOT NULL DEFAULT '',
  description       text NOT NULL DEFAULT '',
  regular_price     integer CHECK (regular_price >= 0),
  sale_price        integer CHECK (sale_price >= 0),
  price_min         integer,                  -- what the listing shows and sorts by (sale-aware; min over variations/children)
  price_max         integer,
  stock_quantity    integer,                  -- NULL: stock not managed
  stock_status      text NOT NULL DEFAULT 'instock' CHECK (stock_status IN ('instock', 'outofstock', 'onbackorder')),
  menu_order        integer NOT NULL DEFAULT 0,
  featured          boolean NOT NULL DEFAULT false,
  image_ids         integer[] NOT NULL DEFAULT '{}',
  attributes        jsonb NOT NULL DEFAULT '[]'::jsonb,  -- [{name, label, options:[slug], variation}]
  details           jsonb NOT NULL DEFAULT '{}'::jsonb,  -- kind-specific: external url, bundle items, download prices
  total_sales       integer NOT NULL DEFAULT 0,
  rating_average    numeric(3, 2) NOT NULL DEFAULT 0,
  rating_count      integer NOT NULL DEFAULT 0,
  created_at        timestamptz NOT NULL DEFAULT now(),
  search            tsvector GENERATED ALWAYS AS (to_tsvector('english', name || ' ' || short_description)) STORED
);
CREATE INDEX products_menu_order_idx ON products (status, menu_order, name);
CREATE INDEX products_price_idx ON products (status, price_min, id);
CREATE INDEX products_price_desc_idx ON products (status, price_max DESC, id);
CREATE INDEX products_popularity_idx ON products (status, total_sales DESC, id);
CREATE INDEX products_rating_idx ON products (status, rating_average DESC, id);
CREATE INDEX products_date_idx ON products (status, created_at DESC, id);
CREATE INDEX products_search_idx ON products USING gin (search);

CREATE TABLE variations (
  id             integer PRIMARY KEY DEFAULT nextval('catalog_ids'),
  product_id     integer NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  sku            text UNIQUE,
  attributes     jsonb NOT NULL,              -- {"attribute_pa_color": "red", "attribute_pa_size": ""}; '' = any
  regular_price  integer NOT NULL CHECK (regular_price >= 0),
  sale_price     integer CHECK (sale_price >= 0),
  stock_quantity integer,
  stock_status   text NOT NULL DEFAULT 'instock' CHECK (stock_status IN ('instock', 'outofstock', 'onbackorder')),
  image_id       integer REFERENCES media (id),
  menu_order     integer NOT NULL DEFAULT 0,
  status         text NOT NULL DEFAULT 'publish' CHECK (status IN ('publish', 'private'))
);
CREATE INDEX variations_product_idx ON variations (product_id, menu_order);

-- Categories, tags and attribute values are terms of a taxonomy, as in WordPress:
-- product_cat, product_tag, pa_color, pa_size. Listing filters query this.
CREATE TABLE terms (
  id          serial PRIMARY KEY,
  taxonomy    text NOT NULL,
  slug        text NOT NULL,
  name        text NOT NULL,
  description text NOT NULL DEFAULT '',
  parent_id   integer REFERENCES terms (id),
  menu_order  integer NOT NULL DEFAULT 0,
  meta        jsonb NOT NULL DEFAULT '{}'::jsonb, -- e.g. {"color": "#b22"} for swatches
  UNIQUE (taxonomy, slug)
);

CREATE TABLE product_terms (
  product_id integer NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  term_id    integer NOT NULL REFERENCES terms (id) ON DELETE CASCADE,
  PRIMARY KEY (product_id, term_id)
);
CREATE INDEX product_terms_term_idx ON product_terms (term_id, product_id);

CREATE TABLE product_links (
  product_id integer NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  linked_id  integer NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  kind       text NOT NULL CHECK (kind IN ('upsell', 'cross_sell', 'grouped_child', 'bundled')),
  position   integer NOT NULL DEFAULT 0,
  PRIMARY KEY (product_id, kind, linked_id)
);

CREATE TABLE reviews (
  id          serial PRIMARY KEY,
  product_id  integer NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  customer_id integer REFERENCES customers (id) ON DELETE SET NULL,
  author      text NOT NULL,
  rating      integer NOT NULL CHECK (rating BETWEEN 1 AND 5),
  content     text NOT NULL,
  approved    boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reviews_product_idx ON reviews (product_id, created_at DESC);

CREATE TABLE posts (
  id           serial PRIMARY KEY,
  slug         text NOT NULL UNIQUE,
  title        text NOT NULL,
  excerpt      text NOT NULL DEFAULT '',
  content      text NOT NULL,
  author       text NOT NULL,
  status       text NOT NULL DEFAULT 'publish' CHECK (status IN ('publish', 'draft')),
  image_id     integer REFERENCES media (id),
  published_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX posts_published_idx ON posts (status, published_at DESC, id);

-- Key/value settings owned by the shop (e.g. that the demo catalogue was seeded).
CREATE TABLE settings (
  key   text PRIMARY KEY,
  value jsonb NOT NULL
);
