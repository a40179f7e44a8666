import { describe, expect, it } from "vitest";
import { fitSize, IMAGE_SIZES, mimeOfFile, responsiveImage, safeBaseName, type UploadedImage } from "./sizes.ts";

describe("image sizes", () => {
  it("are the storefront's three sizes and their 2×", () => {
    expect(Object.entries(IMAGE_SIZES).map(([n, s]) => `${n} ${s.width}x${s.height}${s.crop ? " crop" : ""}`)).toEqual([
      "woocommerce_gallery_thumbnail 100x100 crop",
      "woocommerce_gallery_thumbnail-2x 200x200 crop",
      "woocommerce_thumbnail 300x300 crop",
      "woocommerce_thumbnail-2x 600x600 crop",
      "woocommerce_single 600x0",
      "woocommerce_single-2x 1200x0",
    ]);
  });

  it("never enlarge, and keep proportions when not cropped", () => {
    expect(fitSize(1600, 1200, { width: 600, height: 0, crop: false })).toEqual({ width: 600, height: 450 });
    expect(fitSize(500, 1200, { width: 600, height: 0, crop: false })).toBeNull();
    expect(fitSize(1600, 250, { width: 300, height: 300, crop: true })).toBeNull();
    expect(fitSize(300, 300, { width: 300, height: 300, crop: true })).toEqual({ width: 300, height: 300 });
  });

  it("make safe file names", () => {
    expect(safeBaseName("Été à Paris (1).JPG")).toBe("ete-a-paris-1");
    expect(safeBaseName("../../etc/passwd")).toBe("passwd");
    expect(safeBaseName(".jpg")).toBe("image");
    expect(safeBaseName("x".repeat(100) + ".png")).toHaveLength(60);
    expect(mimeOfFile("2026/11/a.webp")).toBe("image/webp");
    expect(mimeOfFile("2026/11/a.php")).toBeNull();
  });

  it("give the storefront srcset per format, modern formats first, or nothing without sizes", () => {
    const source = (file: string) => ({ file, filesize: 1 });
    const size = (w: number, h: number) => ({
      file: `2026/11/a-${w}x${h}.jpg`,
      width: w,
      height: h,
      mime_type: "image/jpeg",
      filesize: 1,
      sources: {
        "image/jpeg": source(`2026/11/a-${w}x${h}.jpg`),
        "image/webp": source(`2026/11/a-${w}x${h}.webp`),
        "image/avif": source(`2026/11/a-${w}x${h}.avif`),
      },
    });
    const image: UploadedImage = {
      file: "2026/11/a.jpg",
      width: 1600,
      height: 1200,
      mime: "image/jpeg",
      sizes: { woocommerce_single: size(600, 450), "woocommerce_single-2x": size(1200, 900) },
    };
    expect(responsiveImage(image, "woocommerce_single", "600px")).toEqual({
      src: "/wp-content/uploads/2026/11/a-600x450.jpg",
      width: 600,
      height: 450,
      sizes: "600px",
      sources: [
        { type: "image/avif", srcSet: "/wp-content/uploads/2026/11/a-600x450.avif 600w, /wp-content/uploads/2026/11/a-1200x900.avif 1200w" },
        { type: "image/webp", srcSet: "/wp-content/uploads/2026/11/a-600x450.webp 600w, /wp-content/uploads/2026/11/a-1200x900.webp 1200w" },
        { type: "image/jpeg", srcSet: "/wp-content/uploads/2026/11/a-600x450.jpg 600w, /wp-content/uploads/2026/11/a-1200x900.jpg 1200w" },
      ],
    });
    expect(responsiveImage(image, "woocommerce_thumbnail", "300px")).toBeNull();
    expect(responsiveImage(null, "woocommerce_single", "600px")).toBeNull();
  });
});
