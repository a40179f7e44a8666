/** The product image lightbox with counter, fullscreen, zoom and share (docs/contract/storefront.md §9 'Lightbox options on'). Loaded on first open. */
import { useEffect } from "react";
import Lightbox from "yet-another-react-lightbox";
import Counter from "yet-another-react-lightbox/plugins/counter";
import Fullscreen from "yet-another-react-lightbox/plugins/fullscreen";
import Zoom from "yet-another-react-lightbox/plugins/zoom";
import Share from "yet-another-react-lightbox/plugins/share";
import stylesUrl from "yet-another-react-lightbox/styles.css?url";
import counterUrl from "yet-another-react-lightbox/plugins/counter.css?url";
import type { GalleryImage } from "./ProductGallery.tsx";

/** Components import no CSS into the global bundle: the lightbox's own sheets are linked when it first opens. */
function useStylesheets(hrefs: string[]) {
  useEffect(() => {
    for (const href of hrefs) {
      if (document.querySelector(`link[data-lightbox-css="${href}"]`)) continue;
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      link.dataset.lightboxCss = href;
      document.head.appendChild(link);
    }
  }, [hrefs]);
}

const SHEETS = [stylesUrl, counterUrl];

export default function GalleryLightbox({
  images,
  index,
  onClose,
  shareUrl,
  title,
  root,
}: {
  images: GalleryImage[];
  index: number;
  onClose: () => void;
  shareUrl: string;
  title: string;
  root?: Element | null;
}) {
  useStylesheets(SHEETS);
  return (
    <Lightbox
      open
      close={onClose}
      index={index}
      slides={images.map((img) => ({ src: img.src, alt: img.alt, width: 600, height: 600, share: { url: shareUrl, title } }))}
      plugins={[Counter, Fullscreen, Zoom, Share]}
      carousel={{ finite: true }}
      animation={{ swipe: 300 }}
      // Only when given: an explicit `portal={undefined}` would replace the lightbox's default settings.
      {...(root ? { portal: { root } } : {})}
    />
  );
}
