-- What the shopper chose on each line, as the cart and checkout showed it: a variation's attributes ("Size: M,
-- Color: Blue"), a bundle's contents, a download's option. The receipt page and the order e-mails print it, so
-- they say exactly what was bought. Numbered 0013: 0012 is taken by the comments migration on another branch.
ALTER TABLE order_lines ADD COLUMN details text NOT NULL DEFAULT '';
