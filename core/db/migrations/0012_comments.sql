-- Product reviews and blog comments in one table, as WordPress keeps them (wp_comments, comment_type 'review' or
-- 'comment'), submitted by visitors and held for moderation (docs/contract/storefront.md §4 'Reviews and comments').
--
-- WordPress posts a comment with one id, comment_post_ID, because posts and products share wp_posts' id space. Posts
-- join the catalogue's id space here (products and variations already share it), so that one id names exactly one
-- product or post. Nothing references posts.id yet; links use the slug.
-- Renumbered in their old order (ids are a tie-break when two posts share a date); negated first so no new id meets an
-- old one.
UPDATE posts SET id = -id;
UPDATE posts p SET id = n.new_id
FROM (SELECT old_id, nextval('catalog_ids') AS new_id FROM (SELECT id AS old_id FROM posts ORDER BY id DESC) o) n
WHERE p.id = n.old_id;
ALTER TABLE posts ALTER COLUMN id SET DEFAULT nextval('catalog_ids');
DROP SEQUENCE posts_id_seq;

-- WordPress's comment_status: 'closed' refuses new comments (and reviews) on that post or product.
ALTER TABLE posts ADD COLUMN comment_status text NOT NULL DEFAULT 'open' CHECK (comment_status IN ('open', 'closed'));
ALTER TABLE products ADD COLUMN comment_status text NOT NULL DEFAULT 'open' CHECK (comment_status IN ('open', 'closed'));

CREATE TABLE comments (
  id           serial PRIMARY KEY,
  type         text NOT NULL CHECK (type IN ('review', 'comment')),
  product_id   integer REFERENCES products (id) ON DELETE CASCADE,
  post_id      integer REFERENCES posts (id) ON DELETE CASCADE,
  parent_id    integer REFERENCES comments (id) ON DELETE CASCADE,
  customer_id  integer REFERENCES customers (id) ON DELETE SET NULL,
  author       text NOT NULL,
  author_email text NOT NULL DEFAULT '',
  rating       integer CHECK (rating BETWEEN 1 AND 5),
  content      text NOT NULL,
  -- WordPress's comment_approved: '0' pending, '1' approved, 'spam', 'trash'.
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'spam', 'trash')),
  verified     boolean NOT NULL DEFAULT false,  -- the reviewer had bought the product when they wrote it
  created_at   timestamptz NOT NULL DEFAULT now(),
  CHECK ((product_id IS NULL) <> (post_id IS NULL)),
  CHECK ((type = 'review') = (product_id IS NOT NULL)),
  CHECK (type = 'comment' OR parent_id IS NOT NULL OR rating IS NOT NULL)
);
CREATE INDEX comments_product_idx ON comments (product_id, status, created_at DESC) WHERE product_id IS NOT NULL;
CREATE INDEX comments_post_idx ON comments (post_id, status, created_at) WHERE post_id IS NOT NULL;
CREATE INDEX comments_pending_idx ON comments (created_at) WHERE status = 'pending';

-- The seeded reviews move over as they were (approved unless marked otherwise).
INSERT INTO comments (type, product_id, customer_id, author, rating, content, status, created_at)
SELECT 'review', product_id, customer_id, author, rating, content, CASE WHEN approved THEN 'approved' ELSE 'pending' END, created_at
FROM reviews ORDER BY id;
DROP TABLE reviews;
