-- Content for the staff REST API (docs/contract/rest/content.md): pages beside posts in one table (WordPress's
-- wp_posts with post_type 'post' or 'page'), WordPress's post statuses, the author as a user, the modified date,
-- and the blog's own taxonomies (category, post_tag) as terms linked through post_terms.
ALTER TABLE posts ADD COLUMN type text NOT NULL DEFAULT 'post' CHECK (type IN ('post', 'page'));
ALTER TABLE posts DROP CONSTRAINT posts_status_check;
ALTER TABLE posts ADD CONSTRAINT posts_status_check CHECK (status IN ('publish', 'future', 'draft', 'pending', 'private', 'trash'));
ALTER TABLE posts ADD COLUMN author_id integer REFERENCES customers (id) ON DELETE SET NULL;
ALTER TABLE posts ADD COLUMN modified_at timestamptz NOT NULL DEFAULT now();
UPDATE posts SET modified_at = published_at;
ALTER TABLE posts ADD COLUMN parent_id integer REFERENCES posts (id) ON DELETE SET NULL;
ALTER TABLE posts ADD COLUMN menu_order integer NOT NULL DEFAULT 0;
ALTER TABLE posts ADD COLUMN sticky boolean NOT NULL DEFAULT false;
ALTER TABLE posts ADD COLUMN ping_status text NOT NULL DEFAULT 'closed' CHECK (ping_status IN ('open', 'closed'));
ALTER TABLE posts ADD COLUMN format text NOT NULL DEFAULT 'standard';
ALTER TABLE posts ADD COLUMN template text NOT NULL DEFAULT '';
ALTER TABLE posts ADD COLUMN meta jsonb NOT NULL DEFAULT '{}'::jsonb;

DROP INDEX posts_published_idx;
CREATE INDEX posts_type_status_idx ON posts (type, status, published_at DESC, id);

CREATE TABLE post_terms (
  post_id integer NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  term_id integer NOT NULL REFERENCES terms (id) ON DELETE CASCADE,
  PRIMARY KEY (post_id, term_id)
);
CREATE INDEX post_terms_term_idx ON post_terms (term_id, post_id);

-- WordPress's default category: a post always has at least one.
INSERT INTO terms (taxonomy, slug, name) VALUES ('category', 'uncategorized', 'Uncategorized') ON CONFLICT DO NOTHING;
INSERT INTO post_terms (post_id, term_id)
SELECT p.id, t.id FROM posts p, terms t WHERE p.type = 'post' AND t.taxonomy = 'category' AND t.slug = 'uncategorized';
