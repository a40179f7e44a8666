-- Every unit of managed stock an order holds, per stock item: each line's own product or variation and, for a
-- bundle, each product inside it. Giving an order's stock back (a failed payment) or taking it again (paying a
-- failed order) reads only this table; it replaces order_lines.stock_taken, which knew nothing of bundles.
CREATE TABLE order_stock (
  order_id   integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  item_table text NOT NULL CHECK (item_table IN ('products', 'variations')),
  item_id    integer NOT NULL,
  quantity   integer NOT NULL CHECK (quantity > 0),
  PRIMARY KEY (order_id, item_table, item_id)
);

INSERT INTO order_stock (order_id, item_table, item_id, quantity)
SELECT order_id,
       CASE WHEN variation_id IS NULL THEN 'products' ELSE 'variations' END,
       coalesce(variation_id, product_id),
       sum(stock_taken)
FROM order_lines
WHERE stock_taken > 0
GROUP BY 1, 2, 3;

ALTER TABLE order_lines DROP COLUMN stock_taken;
