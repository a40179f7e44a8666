-- Replies to product reviews (issue 14, docs/decisions/0038-review-replies-and-customer-versions.md): as in
-- WordPress, a reply to a review is a comment of type 'comment' on the product, with the review as its parent (so
-- WooCommerce's products/reviews, the rating and the review counts never see it; wp/v2/comments serves it). Until now
-- a comment on a product had to be a review; a product's comment must now be a reply.
DO $$
DECLARE
  name text;
BEGIN
  SELECT conname INTO name FROM pg_constraint
  WHERE conrelid = 'comments'::regclass AND contype = 'c'
    AND pg_get_constraintdef(oid) LIKE '%(type = ''review''::text) = (product_id IS NOT NULL)%';
  EXECUTE format('ALTER TABLE comments DROP CONSTRAINT %I', name);
END $$;
ALTER TABLE comments ADD CONSTRAINT comments_type_target CHECK (
  CASE type WHEN 'review' THEN product_id IS NOT NULL ELSE post_id IS NOT NULL OR parent_id IS NOT NULL END
);
CREATE INDEX comments_parent_idx ON comments (parent_id) WHERE parent_id IS NOT NULL;
