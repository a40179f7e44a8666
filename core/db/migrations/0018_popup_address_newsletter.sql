-- Popup events also keep the client's address (docs/contract/wire.md §2 'Popups'): the per-client limit keys on the
-- browser's key cookie, which a script can rotate; a second limit per address holds whatever the cookie says.
ALTER TABLE popup_events ADD COLUMN client_address text;
CREATE INDEX popup_events_address_time ON popup_events (client_address, created_at);

-- The newsletter sign-up (docs/contract/storefront.md §2 'POST /newsletter/'): one row per address, whatever its
-- letter case; source says where it came from ('popup:<id>', 'form').
CREATE TABLE newsletter_subscribers (
  id         serial PRIMARY KEY,
  email      text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  source     text NOT NULL DEFAULT 'form' CHECK (length(source) <= 50),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX newsletter_subscribers_email ON newsletter_subscribers (lower(email));
