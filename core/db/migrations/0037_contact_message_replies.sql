-- Staff replies to contact-form messages (issue 14, docs/contract/admin.md 'Messages'): a reply is e-mailed to the
-- visitor through the outbox in the same transaction (`email_id` names that e-mail, so the admin shows whether it
-- went) and kept with the message. `author_id` is the staff member who wrote it.
CREATE TABLE contact_message_replies (
  id         serial PRIMARY KEY,
  message_id integer NOT NULL REFERENCES contact_messages (id) ON DELETE CASCADE,
  author_id  integer REFERENCES customers (id) ON DELETE SET NULL,
  body       text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 5000),
  email_id   integer REFERENCES email_outbox (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_message_replies_message_idx ON contact_message_replies (message_id, created_at, id);
