-- Catalog visibility (WooCommerce's catalog_visibility, docs/decisions/0031-catalog-visibility.md): where a published
-- product is listed. 'visible': the shop, category archives and search results; 'catalog': the shop and archives,
-- not search results; 'search': search results only; 'hidden': neither. Its own page opens by address whatever the
-- visibility, as in WooCommerce. The storefront's queries read it in core/db/repositories/catalog.ts.
ALTER TABLE products ADD COLUMN catalog_visibility text NOT NULL DEFAULT 'visible'
  CHECK (catalog_visibility IN ('visible', 'catalog', 'search', 'hidden'));

-- The counts of 0029_catalog_counts.sql now count the products *listed* in the catalogue (published, and visible or
-- 'catalog'), as WooCommerce's product_count_product_cat leaves out the products excluded from the catalogue: the
-- shop's and a category's "N results" are the listing's own rows. The triggers below are 0029's with "published"
-- replaced by "listed"; a change of visibility moves the counts as a change of status does.
ALTER TABLE catalog_counts RENAME COLUMN published_products TO listed_products;

CREATE OR REPLACE FUNCTION recount_catalog() RETURNS void LANGUAGE sql AS $$
  UPDATE catalog_counts SET listed_products = (SELECT count(*) FROM products
                                                WHERE status = 'publish' AND catalog_visibility IN ('visible', 'catalog'));
  UPDATE terms t SET product_count = (SELECT count(*) FROM product_terms pt JOIN products p ON p.id = pt.product_id
                                       WHERE pt.term_id = t.id AND p.status = 'publish'
                                         AND p.catalog_visibility IN ('visible', 'catalog'));
$$;

CREATE OR REPLACE FUNCTION product_terms_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE terms t SET product_count = t.product_count - d.n
      FROM (SELECT o.term_id, count(*)::int AS n FROM old_rows o JOIN products p ON p.id = o.product_id
             WHERE p.status = 'publish' AND p.catalog_visibility IN ('visible', 'catalog') GROUP BY o.term_id) d
     WHERE t.id = d.term_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE terms t SET product_count = t.product_count + d.n
      FROM (SELECT i.term_id, count(*)::int AS n FROM new_rows i JOIN products p ON p.id = i.product_id
             WHERE p.status = 'publish' AND p.catalog_visibility IN ('visible', 'catalog') GROUP BY i.term_id) d
     WHERE t.id = d.term_id;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION products_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO delta FROM new_rows WHERE status = 'publish' AND catalog_visibility IN ('visible', 'catalog');
  ELSIF TG_OP = 'DELETE' THEN
    SELECT -count(*) INTO delta FROM old_rows WHERE status = 'publish' AND catalog_visibility IN ('visible', 'catalog');
  ELSE
    -- (id, listed) pairs of the new rows that the old rows lack: the products listed or unlisted by this statement
    -- (a status or a visibility changed). EXCEPT hashes both sides (0029 says why not a join).
    WITH changed AS (
      SELECT id, status = 'publish' AND catalog_visibility IN ('visible', 'catalog') AS listed FROM new_rows
      EXCEPT SELECT id, status = 'publish' AND catalog_visibility IN ('visible', 'catalog') FROM old_rows
    ), terms_changed AS (
      UPDATE terms t SET product_count = t.product_count + d.n
        FROM (SELECT pt.term_id, sum(CASE WHEN c.listed THEN 1 ELSE -1 END)::int AS n
                FROM changed c JOIN product_terms pt ON pt.product_id = c.id GROUP BY pt.term_id) d
       WHERE t.id = d.term_id AND d.n <> 0
    )
    SELECT coalesce(sum(CASE WHEN listed THEN 1 ELSE -1 END), 0) INTO delta FROM changed;
  END IF;
  IF delta <> 0 THEN
    UPDATE catalog_counts SET listed_products = listed_products + delta;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION products_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'publish' AND OLD.catalog_visibility IN ('visible', 'catalog') THEN
    UPDATE terms t SET product_count = t.product_count - 1
      FROM product_terms pt WHERE pt.product_id = OLD.id AND t.id = pt.term_id;
  END IF;
  RETURN OLD;
END $$;

SELECT recount_catalog();
