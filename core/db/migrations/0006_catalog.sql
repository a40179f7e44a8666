-- Catalogue (issue 3): indexes for listing reads that grow with the catalogue.

-- Category counts skip unpublished products by an anti-join against this (small) set,
-- instead of reading every product once per category.
CREATE INDEX IF NOT EXISTS products_unpublished_idx ON products (id) WHERE status <> 'publish';

-- Categories by parent, for an archive that includes its child categories.
CREATE INDEX IF NOT EXISTS terms_parent_idx ON terms (parent_id) WHERE parent_id IS NOT NULL;

-- Variation lookups for listing items and the on-demand variation endpoint, in display order.
CREATE INDEX IF NOT EXISTS variations_product_order_idx ON variations (product_id, menu_order, id) WHERE status = 'publish';
