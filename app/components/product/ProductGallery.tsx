/**
 * The product gallery (docs/contract/storefront.md §2 'Image gallery'): a swipeable slider below 922 px, removed at
 * 922 px or wider, width re-checked 250 ms after a resize; jumps to the chosen variation's
 * image. Slider and lightbox are separate chunks loaded only when used.
 */
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { loadChunk } from "../../lib/page-errors.ts";
import type { UploadedImage } from "../../../core/domain/media/sizes.ts";
import { ProductImage, SINGLE_SIZES } from "./ProductImage.tsx";

export interface GalleryImage {
  src: string;
  alt: string;
  /** An uploaded image's sizes (srcset); absent for a generated one. */
  upload?: UploadedImage | null;
}

const GallerySlider = lazy(() => loadChunk("gallery-slider", () => import("./GallerySlider.tsx")));
const GalleryLightbox = lazy(() => loadChunk("gallery-lightbox", () => import("./GalleryLightbox.tsx")));

interface Props {
  images: GalleryImage[];
  /** The chosen variation's image, or null. */
  variationImage: GalleryImage | null;
  breakpoint: number;
  resizeDebounceMs: number;
  badge: React.ReactNode;
  shareUrl: string;
  title: string;
  /** Where the lightbox mounts when not in <body>: inside a modal dialog (the quick view), whose outside is inert. */
  lightboxRoot?: Element | null;
}

export function ProductGallery({ images: baseImages, variationImage, breakpoint, resizeDebounceMs, badge, shareUrl, title, lightboxRoot }: Props) {
  const [narrow, setNarrow] = useState(false);
  const [active, setActive] = useState(0);
  const [lightbox, setLightbox] = useState<number | null>(null);

  // A variation image already in the gallery is jumped to; otherwise it takes the first slide, as WooCommerce does.
  const existing = variationImage ? baseImages.findIndex((i) => i.src === variationImage.src) : -1;
  const images = variationImage && existing === -1 ? [variationImage, ...baseImages.slice(1)] : baseImages;
  const [shownVariation, setShownVariation] = useState({ variationImage, existing });
  if (shownVariation.variationImage !== variationImage || shownVariation.existing !== existing) {
    setShownVariation({ variationImage, existing });
    if (variationImage) setActive(existing === -1 ? 0 : existing);
  }

  useEffect(() => {
    const check = () => setNarrow(window.innerWidth < breakpoint);
    check();
    let timer: number | undefined;
    const onResize = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(check, resizeDebounceMs);
    };
    window.addEventListener("resize", onResize);
    return () => {
      window.removeEventListener("resize", onResize);
      window.clearTimeout(timer);
    };
  }, [breakpoint, resizeDebounceMs]);

  const onActive = useCallback((i: number) => setActive(i), []);
  const main = images[active] ?? images[0];

  return (
    <div className={`woocommerce-product-gallery${narrow ? " is-slider" : " is-static"}`} data-columns="4" data-active={active}>
      {badge}
      {narrow ? (
        <Suspense fallback={<StaticGallery images={images} active={active} main={main} onActive={onActive} onOpen={setLightbox} />}>
          <GallerySlider images={images} active={active} onActive={onActive} onOpen={setLightbox} />
        </Suspense>
      ) : (
        <StaticGallery images={images} active={active} main={main} onActive={onActive} onOpen={setLightbox} />
      )}
      {lightbox !== null ? (
        <Suspense fallback={null}>
          <GalleryLightbox images={images} index={lightbox} onClose={() => setLightbox(null)} shareUrl={shareUrl} title={title} root={lightboxRoot} />
        </Suspense>
      ) : null}
    </div>
  );
}

function StaticGallery({
  images,
  active,
  main,
  onActive,
  onOpen,
}: {
  images: GalleryImage[];
  active: number;
  main: GalleryImage | undefined;
  onActive: (i: number) => void;
  onOpen: (i: number) => void;
}) {
  return (
    <div className="gallery-static">
      {main ? (
        <div className="woocommerce-product-gallery__image gallery-main">
          <a href={main.src} onClick={(e) => (e.preventDefault(), onOpen(active))} aria-label="View larger image">
            <ProductImage upload={main.upload} size="woocommerce_single" sizes={SINGLE_SIZES} src={main.src} alt={main.alt} width={600} height={600} />
          </a>
        </div>
      ) : null}
      {images.length > 1 ? (
        <ul className="flex-control-thumbs">
          {images.map((img, i) => (
            <li key={`${img.src}-${i}`} className="woocommerce-product-gallery__image" data-thumb={img.src}>
              <button
                type="button"
                className={i === active ? "flex-active" : ""}
                aria-label={`Show image ${i + 1}`}
                aria-current={i === active}
                onClick={() => onActive(i)}
              >
                <ProductImage
                  upload={img.upload}
                  size="woocommerce_gallery_thumbnail"
                  sizes="100px"
                  src={img.src}
                  alt=""
                  width={100}
                  height={100}
                  loading="lazy"
                />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
