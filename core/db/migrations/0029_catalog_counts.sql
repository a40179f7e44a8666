-- Catalogue counts kept by triggers (issue 18, docs/decisions/0026-catalog-counts.md): the listing's "N results" for
-- the whole shop and a category, and the category counts, read one row instead of counting every product or
-- product-term row on each request. The products and product_terms rows stay the one source of truth: the counts
-- are derived from them by the triggers below in the same transaction as every write (admin, REST, seed, checkout),
-- as deltas (`n = n + d`, safe under concurrent writers), and recount_catalog() rebuilds them from scratch.

-- Published products linked to the term (directly, like WordPress's term_taxonomy.count).
ALTER TABLE terms ADD COLUMN product_count integer NOT NULL DEFAULT 0;

-- One row: the number of published products.
CREATE TABLE catalog_counts (
  id                 boolean PRIMARY KEY DEFAULT true CHECK (id),
  published_products integer NOT NULL DEFAULT 0
);
INSERT INTO catalog_counts (id) VALUES (true);

CREATE FUNCTION recount_catalog() RETURNS void LANGUAGE sql AS $$
  UPDATE catalog_counts SET published_products = (SELECT count(*) FROM products WHERE status = 'publish');
  UPDATE terms t SET product_count = (SELECT count(*) FROM product_terms pt JOIN products p ON p.id = pt.product_id
                                       WHERE pt.term_id = t.id AND p.status = 'publish');
$$;

-- Links added or removed: their terms gain or lose the published products among them. A link removed because its
-- product was deleted (ON DELETE CASCADE) no longer finds the product and counts nothing: products_count_delete
-- below has already taken it off.
CREATE FUNCTION product_terms_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE terms t SET product_count = t.product_count - d.n
      FROM (SELECT o.term_id, count(*)::int AS n FROM old_rows o JOIN products p ON p.id = o.product_id
             WHERE p.status = 'publish' GROUP BY o.term_id) d
     WHERE t.id = d.term_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE terms t SET product_count = t.product_count + d.n
      FROM (SELECT i.term_id, count(*)::int AS n FROM new_rows i JOIN products p ON p.id = i.product_id
             WHERE p.status = 'publish' GROUP BY i.term_id) d
     WHERE t.id = d.term_id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER product_terms_count_insert AFTER INSERT ON product_terms
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_terms_count();
CREATE TRIGGER product_terms_count_delete AFTER DELETE ON product_terms
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_terms_count();
CREATE TRIGGER product_terms_count_update AFTER UPDATE ON product_terms
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_terms_count();

-- Products published, unpublished, added or deleted. Stock and sales writes (checkout) change no status: the
-- UPDATE trigger then finds no changed row and writes nothing, so it takes no lock on the counts.
CREATE FUNCTION products_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO delta FROM new_rows WHERE status = 'publish';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT -count(*) INTO delta FROM old_rows WHERE status = 'publish';
  ELSE
    -- The products whose visibility changed, with their new one: (id, published) pairs of the new rows that the old
    -- rows lack. EXCEPT hashes both sides; a join of two transition tables (which have no statistics) could be
    -- planned as a nested loop, quadratic in the rows one statement updates (a bulk UPDATE of 50,000 products).
    -- The terms of those products gain or lose them (an inserted product has no links yet).
    WITH changed AS (
      SELECT id, status = 'publish' AS published FROM new_rows EXCEPT SELECT id, status = 'publish' FROM old_rows
    ), terms_changed AS (
      UPDATE terms t SET product_count = t.product_count + d.n
        FROM (SELECT pt.term_id, sum(CASE WHEN c.published THEN 1 ELSE -1 END)::int AS n
                FROM changed c JOIN product_terms pt ON pt.product_id = c.id GROUP BY pt.term_id) d
       WHERE t.id = d.term_id AND d.n <> 0
    )
    SELECT coalesce(sum(CASE WHEN published THEN 1 ELSE -1 END), 0) INTO delta FROM changed;
  END IF;
  IF delta <> 0 THEN
    UPDATE catalog_counts SET published_products = published_products + delta;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER products_count_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION products_count_change();
CREATE TRIGGER products_count_update AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION products_count_change();
CREATE TRIGGER products_count_delete_total AFTER DELETE ON products
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION products_count_change();

-- A published product being deleted takes itself off its terms' counts while its links still exist (the cascade
-- that removes them runs after the row is gone, when product_terms_count can no longer tell it was published).
CREATE FUNCTION products_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'publish' THEN
    UPDATE terms t SET product_count = t.product_count - 1
      FROM product_terms pt WHERE pt.product_id = OLD.id AND t.id = pt.term_id;
  END IF;
  RETURN OLD;
END $$;
CREATE TRIGGER products_count_delete BEFORE DELETE ON products
  FOR EACH ROW EXECUTE FUNCTION products_count_delete();

SELECT recount_catalog();
