-- Uploaded images (wp/v2/media, docs/contract/rest/media.md): attachments live in the same `media` table as the
-- generated demo images, so product and post image ids keep one id space. A generated image has `body` (its SVG)
-- and no `file`; an uploaded one has `file` (the storage key of its metadata-free original, e.g. 2026/11/mask.jpg),
-- no body, and `sizes`, the sub-sizes made from it: {name: {file, width, height, mime_type, filesize,
-- sources: {mime: {file, filesize}}}}. `sizes_state` says whether those exist yet ('pending' after a failed
-- attempt: POST wp/v2/media/{id}/post-process retries it).
ALTER TABLE media ALTER COLUMN body DROP NOT NULL;
ALTER TABLE media
  ADD COLUMN file        text UNIQUE,
  ADD COLUMN filesize    integer,
  ADD COLUMN title       text NOT NULL DEFAULT '',
  ADD COLUMN caption     text NOT NULL DEFAULT '',
  ADD COLUMN description text NOT NULL DEFAULT '',
  ADD COLUMN author_id   integer REFERENCES customers (id) ON DELETE SET NULL,
  ADD COLUMN post_id     integer,
  ADD COLUMN sizes       jsonb NOT NULL DEFAULT '{}'::jsonb,
  ADD COLUMN sizes_state text NOT NULL DEFAULT 'done' CHECK (sizes_state IN ('pending', 'done')),
  ADD COLUMN created_at  timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN modified_at timestamptz NOT NULL DEFAULT now(),
  ADD CONSTRAINT media_body_or_file CHECK (body IS NOT NULL OR file IS NOT NULL);
CREATE INDEX media_post_idx ON media (post_id) WHERE post_id IS NOT NULL;
CREATE INDEX media_created_idx ON media (created_at DESC, id DESC);
