/**
 * The gallery slider used below 922 px (docs/contract/storefront.md §2 'Image gallery', §9 'Gallery slider'): one image
 * per slide, slides by page, mouse drag, no loop. Loaded on demand, so wide screens never
 * download Embla.
 */
import { useEffect, useState } from "react";
import useEmblaCarousel from "embla-carousel-react";
import type { GalleryImage } from "./ProductGallery.tsx";
import { ProductImage, SINGLE_SIZES } from "./ProductImage.tsx";

// Embla's duration is in its own units, not ms: 30 is about the spec's 300 ms slide.
const EMBLA_DURATION_300MS = 30;

export default function GallerySlider({
  images,
  active,
  onActive,
  onOpen,
}: {
  images: GalleryImage[];
  active: number;
  onActive: (i: number) => void;
  onOpen: (i: number) => void;
}) {
  const [viewport, api] = useEmblaCarousel({
    loop: false,
    slidesToScroll: "auto",
    dragFree: false,
    watchDrag: true,
    duration: EMBLA_DURATION_300MS,
    startIndex: active,
    // Right-to-left mode (the root's dir): Embla must translate the mirrored track the other way.
    direction: typeof document !== "undefined" && document.documentElement.dir === "rtl" ? "rtl" : "ltr",
  });
  const [selected, setSelected] = useState(active);
  useEffect(() => {
    if (!api) return;
    const onSelect = () => {
      setSelected(api.selectedScrollSnap());
      onActive(api.selectedScrollSnap());
    };
    api.on("select", onSelect);
    return () => void api.off("select", onSelect);
  }, [api, onActive]);
  useEffect(() => {
    if (api && api.selectedScrollSnap() !== active) api.scrollTo(active);
  }, [api, active]);
  return (
    <div className="gallery-slider" data-testid="gallery-slider">
      <div className="gallery-viewport" ref={viewport}>
        <ul className="gallery-track">
          {images.map((img, i) => (
            <li key={`${img.src}-${i}`} className="woocommerce-product-gallery__image" aria-roledescription="slide" aria-label={`${i + 1} of ${images.length}`}>
              <a href={img.src} onClick={(e) => (e.preventDefault(), onOpen(i))}>
                <ProductImage
                  upload={img.upload}
                  size="woocommerce_single"
                  sizes={SINGLE_SIZES}
                  src={img.src}
                  alt={img.alt}
                  width={600}
                  height={600}
                  draggable={false}
                  loading={i === 0 ? "eager" : "lazy"}
                />
              </a>
            </li>
          ))}
        </ul>
      </div>
      <div className="gallery-dots">
        {images.map((img, i) => (
          <button key={i} type="button" aria-label={`Show image ${i + 1}`} aria-current={i === selected} onClick={() => api?.scrollTo(i)} />
        ))}
      </div>
    </div>
  );
}
