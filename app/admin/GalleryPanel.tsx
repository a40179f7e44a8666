/**
 * The product's images in the editor (docs/contract/admin.md 'Images'): files dropped on the panel or chosen with
 * "Upload images" are uploaded one by one to `POST wp/v2/media` (api-fetch's media middleware retries the
 * post-processing on a 5xx, decision 0020), then shown as thumbnails in order; buttons move or remove each, and the
 * first is the main image. The list is saved as the product's `images` with the editor's Update.
 */
import { useEffect, useRef, useState, type DragEvent } from "react";
import { Button, FormFileUpload, Spinner } from "@wordpress/components";
import { uploadMedia, type RestError } from "./api.ts";

export interface GalleryImage {
  id: number;
  src: string;
  alt: string;
}

type Update = (change: (images: GalleryImage[]) => GalleryImage[]) => void;

const imageFiles = (files: FileList | null) => Array.from(files ?? []).filter((f) => f.type.startsWith("image/"));

export function GalleryPanel({ images, update, error }: { images: GalleryImage[]; update: Update; error?: string }) {
  const [uploading, setUploading] = useState<string[]>([]);
  const [failures, setFailures] = useState<string[]>([]);
  const [announce, setAnnounce] = useState("");
  const [over, setOver] = useState(false);
  // After a move, focus stays on the same button of the moved image.
  const [focusAfter, setFocusAfter] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (!focusAfter) return;
    list.current?.querySelector<HTMLElement>(`[data-focus-key="${focusAfter}"]`)?.focus();
    setFocusAfter(null);
  }, [focusAfter, images]);

  async function upload(files: File[]) {
    if (!files.length) return;
    setFailures([]);
    setUploading((u) => [...u, ...files.map((f) => f.name)]);
    for (const file of files) {
      try {
        const media = await uploadMedia(file);
        update((imgs) => [...imgs, { id: media.id, src: media.source_url, alt: media.alt_text }]);
        setAnnounce(`${file.name} uploaded.`);
      } catch (e) {
        setFailures((f) => [...f, `${file.name}: ${(e as RestError).message}`]);
      } finally {
        setUploading((u) => {
          const i = u.indexOf(file.name);
          return i < 0 ? u : [...u.slice(0, i), ...u.slice(i + 1)];
        });
      }
    }
  }

  const move = (from: number, to: number, key: string) => {
    update((imgs) => {
      const next = [...imgs];
      const [img] = next.splice(from, 1);
      next.splice(to, 0, img!);
      return next;
    });
    setAnnounce(`Image ${from + 1} moved to position ${to + 1}${to === 0 ? ", the main image" : ""}.`);
    setFocusAfter(key);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    void upload(imageFiles(event.dataTransfer.files));
  };

  return (
    <fieldset className="admin-fieldset admin-gallery" aria-describedby={error ? "gallery-error" : undefined}>
      <legend>Product images</legend>
      <div
        className={`admin-dropzone${over ? " is-over" : ""}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="gallery-dropzone"
      >
        <p>Drop images here, or</p>
        <FormFileUpload
          accept="image/*"
          multiple
          onChange={(e) => void upload(imageFiles(e.currentTarget.files))}
          render={({ openFileDialog }) => (
            <Button variant="secondary" onClick={openFileDialog} __next40pxDefaultSize>
              Upload images
            </Button>
          )}
        />
        <p className="admin-hint">JPEG, PNG, GIF, WebP or AVIF. The first image is the main image; the others form the gallery.</p>
      </div>
      <div role="status" className="admin-gallery-status">
        {uploading.length ? (
          <p>
            <Spinner /> Uploading {uploading.join(", ")}…
          </p>
        ) : null}
        <span className="screen-reader-text">{announce}</span>
      </div>
      {failures.length ? (
        <div role="alert" className="admin-field-error">
          {failures.map((f) => (
            <p key={f}>Not uploaded: {f}</p>
          ))}
        </div>
      ) : null}
      {images.length ? (
        <ol className="admin-gallery-list" ref={list}>
          {images.map((img, i) => (
            <li key={img.id} className="admin-gallery-item">
              <img src={img.src} alt={img.alt || `Product image ${i + 1}`} width={96} height={96} />
              <span className="admin-gallery-caption">{i === 0 ? "Main image" : `Gallery image ${i}`}</span>
              <span className="admin-gallery-buttons">
                <Button
                  size="small"
                  variant="tertiary"
                  data-focus-key={`${img.id}-earlier`}
                  accessibleWhenDisabled
                  disabled={i === 0}
                  onClick={() => move(i, i - 1, `${img.id}-earlier`)}
                  label={`Move image ${i + 1} earlier`}
                  showTooltip={false}
                >
                  ←
                </Button>
                <Button
                  size="small"
                  variant="tertiary"
                  data-focus-key={`${img.id}-later`}
                  accessibleWhenDisabled
                  disabled={i === images.length - 1}
                  onClick={() => move(i, i + 1, `${img.id}-later`)}
                  label={`Move image ${i + 1} later`}
                  showTooltip={false}
                >
                  →
                </Button>
                <Button
                  size="small"
                  variant="tertiary"
                  isDestructive
                  onClick={() => {
                    update((imgs) => imgs.filter((x) => x.id !== img.id));
                    setAnnounce(`Image ${i + 1} removed from the product.`);
                  }}
                  label={`Remove image ${i + 1}`}
                  showTooltip={false}
                >
                  Remove
                </Button>
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="admin-hint">No images yet: the storefront shows a placeholder.</p>
      )}
      {error ? (
        <p id="gallery-error" className="admin-field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
