-- Navigation menus as data the owner edits (docs/contract/rest/shop-v1.md 'Menus'): a menu, and its items as a tree
-- (parent_id, at most three levels, the domain's rule in core/domain/menus) ordered by position among siblings.
-- An item points to its target by kind: a storefront page by key, a product category, product or post by id, a
-- custom address, or a link action (core/domain/popups/link-actions.ts). Targets are checked when the menu is
-- written; one deleted later makes the item disappear from what the header reads, never a link to a 404.
CREATE TABLE menus (
  id         serial PRIMARY KEY,
  name       text NOT NULL,
  slug       text NOT NULL UNIQUE,
  location   text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE menu_items (
  id         serial PRIMARY KEY,
  menu_id    integer NOT NULL REFERENCES menus (id) ON DELETE CASCADE,
  parent_id  integer REFERENCES menu_items (id) ON DELETE CASCADE,
  position   integer NOT NULL CHECK (position >= 0),
  kind       text NOT NULL CHECK (kind IN ('page', 'product_cat', 'product', 'post', 'custom', 'link_action')),
  -- The target: object_id for product_cat, product and post; target for page (its key), custom (the URL) and
  -- link_action (the href).
  object_id  integer,
  target     text,
  title      text NOT NULL DEFAULT '',
  options    jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(options) = 'object')
);
CREATE INDEX menu_items_menu_idx ON menu_items (menu_id, parent_id, position);
