/**
 * A product image: drawn as a plain `<img>` (the generated demo images), or, for an uploaded image with sub-sizes,
 * as a `<picture>` offering AVIF and WebP before the original format, each with `srcset` at 1× and 2× and the
 * size's own width and height so nothing shifts while it loads (docs/contract/rest/media.md 'On the storefront').
 */
import type { ImgHTMLAttributes } from "react";
import { responsiveImage, type BaseSizeName, type UploadedImage } from "../../../core/domain/media/sizes.ts";

type Props = ImgHTMLAttributes<HTMLImageElement> & {
  alt: string;
  upload: UploadedImage | null | undefined;
  /** The size drawn there: listing cards 300 px, the single product image 600 px, gallery thumbnails 100 px. */
  size: BaseSizeName;
  /** The `sizes` attribute: how wide the image is drawn. */
  sizes: string;
};

/** The single product image is drawn 600 px wide, or the page's width below that. */
export const SINGLE_SIZES = "(max-width: 600px) 100vw, 600px";

export function ProductImage({ upload, size, sizes, ...img }: Props) {
  const r = responsiveImage(upload, size, sizes);
  if (!r) return <img {...img} alt={img.alt} />;
  const own = r.sources[r.sources.length - 1]!;
  return (
    <picture>
      {r.sources.slice(0, -1).map((s) => (
        <source key={s.type} type={s.type} srcSet={s.srcSet} sizes={r.sizes} />
      ))}
      <img {...img} alt={img.alt} src={r.src} srcSet={own.srcSet} sizes={r.sizes} width={r.width} height={r.height} />
    </picture>
  );
}
