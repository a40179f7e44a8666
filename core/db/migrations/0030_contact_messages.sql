-- Messages sent through the storefront's contact form (issue 14, docs/contract/storefront.md §4 'Contact form'):
-- kept for the owner's admin ('Messages', docs/contract/admin.md) and e-mailed to the shop through the outbox in the
-- same transaction. Staff read them through shop/v1/contact-messages; guests never do. `read_at` is set when staff
-- mark one read. The client address is kept for the rate limit's sake and for spotting abuse.
CREATE TABLE contact_messages (
  id             serial PRIMARY KEY,
  name           text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  email          text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
  message        text NOT NULL CHECK (char_length(message) BETWEEN 1 AND 5000),
  client_address text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  read_at        timestamptz
);
CREATE INDEX contact_messages_created_idx ON contact_messages (created_at DESC, id DESC);
CREATE INDEX contact_messages_unread_idx ON contact_messages (created_at DESC, id DESC) WHERE read_at IS NULL;
