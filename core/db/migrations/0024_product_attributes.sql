-- Global product attributes, WooCommerce's wc_woocommerce_attribute_taxonomies (docs/contract/rest/taxonomies.md):
-- the attribute `slug` names the taxonomy of its terms, terms.taxonomy = 'pa_' || slug, as in WooCommerce. Terms
-- stay in `terms` (one source of truth for the storefront's swatches and filters); this table holds the attribute's
-- own settings: its label (`name`, which the product page shows), type, term order and archives.
CREATE TABLE product_attributes (
  id           serial PRIMARY KEY,
  slug         text NOT NULL UNIQUE,
  name         text NOT NULL,
  type         text NOT NULL DEFAULT 'select' CHECK (type IN ('select')),
  order_by     text NOT NULL DEFAULT 'menu_order' CHECK (order_by IN ('menu_order', 'name', 'name_num', 'id')),
  has_archives boolean NOT NULL DEFAULT false
);

-- The attributes a shop already uses: every pa_* taxonomy of a term or of a product's attribute list, labelled as the
-- first product that names it labels it.
INSERT INTO product_attributes (slug, name)
SELECT s.slug,
       coalesce(
         (SELECT a ->> 'label' FROM products p, jsonb_array_elements(p.attributes) a
          WHERE a ->> 'name' = 'pa_' || s.slug AND coalesce(a ->> 'label', '') <> '' ORDER BY p.id LIMIT 1),
         initcap(replace(s.slug, '-', ' ')))
FROM (
  SELECT substr(taxonomy, 4) AS slug FROM terms WHERE taxonomy LIKE 'pa\_%'
  UNION
  SELECT substr(a ->> 'name', 4) FROM products, jsonb_array_elements(attributes) a WHERE a ->> 'name' LIKE 'pa\_%'
) s
ORDER BY s.slug;

-- The status a review had before it was marked spam or trashed, which `unspam` / `untrash` restore (WordPress's
-- _wp_trash_meta_status; without one WordPress restores 'pending').
ALTER TABLE comments ADD COLUMN status_before text CHECK (status_before IN ('pending', 'approved', 'spam', 'trash'));
