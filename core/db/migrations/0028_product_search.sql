-- Product search (docs/contract/storefront-search.md, docs/decisions/0023-product-search.md): PostgreSQL full-text
-- search over a weighted document kept by triggers, trigram similarity for typos. Both extensions ship with
-- PostgreSQL's contrib and with PGlite (loaded in core/db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;

-- The old generated column covered name and short description only; a generated column cannot read the product's
-- terms, so the document is now written by triggers: title A, SKU/categories/tags B, attribute values C,
-- descriptions D.
ALTER TABLE products DROP COLUMN search;
ALTER TABLE products ADD COLUMN search tsvector;

-- Every word of the catalogue's names, categories, tags and attribute values (unstemmed): the dictionary typos are
-- corrected against. Words are never removed (a stale word only offers a correction that finds nothing).
CREATE TABLE search_words (
  word text PRIMARY KEY
);
CREATE INDEX search_words_trgm_idx ON search_words USING gin (word gin_trgm_ops);

CREATE FUNCTION products_search_document() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  taxo  text;
  attrs text;
BEGIN
  SELECT coalesce(string_agg(t.name, ' '), '') INTO taxo
    FROM product_terms pt JOIN terms t ON t.id = pt.term_id
   WHERE pt.product_id = NEW.id AND t.taxonomy IN ('product_cat', 'product_tag');
  SELECT coalesce(string_agg(coalesce(t.name, replace(o.slug, '-', ' ')), ' '), '') INTO attrs
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(NEW.attributes) = 'array' THEN NEW.attributes ELSE '[]'::jsonb END) a
   CROSS JOIN LATERAL jsonb_array_elements_text(CASE WHEN jsonb_typeof(a -> 'options') = 'array' THEN a -> 'options' ELSE '[]'::jsonb END) o(slug)
    LEFT JOIN terms t ON t.taxonomy = a ->> 'name' AND t.slug = o.slug;
  NEW.search :=
    setweight(to_tsvector('english', coalesce(NEW.name, '')), 'A') ||
    -- The SKU also split at its punctuation: the parser reads "QKB-777" as 'qkb' and the integer '-777'.
    setweight(to_tsvector('english', coalesce(NEW.sku, '') || ' ' || regexp_replace(coalesce(NEW.sku, ''), '[^[:alnum:]]+', ' ', 'g') || ' ' || taxo), 'B') ||
    setweight(to_tsvector('english', attrs), 'C') ||
    setweight(to_tsvector('english', coalesce(NEW.short_description, '') || ' ' || coalesce(NEW.description, '')), 'D');
  INSERT INTO search_words (word)
  SELECT DISTINCT w FROM unnest(tsvector_to_array(to_tsvector('simple', coalesce(NEW.name, '') || ' ' || taxo || ' ' || attrs))) w
   WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
  ON CONFLICT DO NOTHING;
  RETURN NEW;
END $$;

-- Only the columns the document reads: stock and sales writes (checkout) do not recompute it. Setting `search`
-- (to anything) asks for a recomputation, which the term triggers below use.
CREATE TRIGGER products_search_document
  BEFORE INSERT OR UPDATE OF name, sku, short_description, description, attributes, search ON products
  FOR EACH ROW EXECUTE FUNCTION products_search_document();

CREATE FUNCTION product_terms_search_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE products SET search = NULL WHERE id IN (SELECT product_id FROM old_rows);
  ELSE
    UPDATE products SET search = NULL WHERE id IN (SELECT product_id FROM new_rows);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER product_terms_search_insert AFTER INSERT ON product_terms
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_terms_search_refresh();
CREATE TRIGGER product_terms_search_delete AFTER DELETE ON product_terms
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_terms_search_refresh();

-- A renamed category, tag or attribute value: the products that carry it (linked, or named in their attribute list).
CREATE FUNCTION terms_search_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products SET search = NULL WHERE id IN (SELECT product_id FROM product_terms WHERE term_id = NEW.id);
  IF NEW.taxonomy LIKE 'pa\_%' THEN
    UPDATE products SET search = NULL
     WHERE attributes @> jsonb_build_array(jsonb_build_object('name', NEW.taxonomy, 'options', jsonb_build_array(NEW.slug)))
        OR attributes @> jsonb_build_array(jsonb_build_object('name', OLD.taxonomy, 'options', jsonb_build_array(OLD.slug)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER terms_search_refresh AFTER UPDATE OF name, slug ON terms
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.slug IS DISTINCT FROM NEW.slug)
  EXECUTE FUNCTION terms_search_refresh();

UPDATE products SET search = NULL;

CREATE INDEX products_search_idx ON products USING gin (search);
-- Substring and typo matches on the title (ILIKE '%…%', similarity operators).
CREATE INDEX products_name_trgm_idx ON products USING gin (name gin_trgm_ops);
