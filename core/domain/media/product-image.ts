/**
 * Product and blog images are drawn here as SVG, so the demo shop needs no
 * downloads. Pure: the same input always gives the same picture.
 */
export type ImageShape = "mask" | "tie" | "bowtie" | "set" | "pattern" | "box" | "square" | "post";
export type ImageView = "front" | "side" | "detail" | "flat";

export interface ProductImageSpec {
  shape: ImageShape;
  color: string;
  accent?: string;
  view?: ImageView;
  label?: string;
}

const SIZE = 600;

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function shapeMarkup(shape: ImageShape, color: string, accent: string): string {
  switch (shape) {
    case "mask":
      return `<path d="M150 220 Q300 170 450 220 L440 380 Q300 450 160 380 Z" fill="${color}" stroke="${accent}" stroke-width="6"/>
<path d="M150 240 Q90 260 110 330 Q125 360 160 360" fill="none" stroke="${accent}" stroke-width="8"/>
<path d="M450 240 Q510 260 490 330 Q475 360 440 360" fill="none" stroke="${accent}" stroke-width="8"/>
<path d="M170 275 Q300 245 430 275 M175 320 Q300 295 425 320" fill="none" stroke="${accent}" stroke-opacity=".45" stroke-width="4"/>`;
    case "tie":
      return `<path d="M270 110 L330 110 L345 160 L300 185 L255 160 Z" fill="${color}" stroke="${accent}" stroke-width="5"/>
<path d="M285 185 L315 185 L370 440 L300 510 L230 440 Z" fill="${color}" stroke="${accent}" stroke-width="5"/>
<path d="M262 260 L338 230 M250 330 L352 290 M240 400 L362 350" stroke="${accent}" stroke-opacity=".5" stroke-width="10"/>`;
    case "bowtie":
      return `<path d="M300 300 L150 210 Q120 300 150 390 Z" fill="${color}" stroke="${accent}" stroke-width="6"/>
<path d="M300 300 L450 210 Q480 300 450 390 Z" fill="${color}" stroke="${accent}" stroke-width="6"/>
<rect x="270" y="265" width="60" height="70" rx="14" fill="${accent}"/>`;
    case "set":
      return `<g transform="translate(-90 -10) scale(.8)">${shapeMarkup("mask", color, accent)}</g>
<g transform="translate(230 40) scale(.75)">${shapeMarkup("tie", color, accent)}</g>`;
    case "pattern":
      return `<rect x="170" y="110" width="260" height="360" rx="10" fill="#fff" stroke="${accent}" stroke-width="6"/>
<path d="M200 170 H400 M200 210 H400 M200 250 H340" stroke="${color}" stroke-width="10"/>
<path d="M220 300 Q300 270 380 300 L375 390 Q300 430 225 390 Z" fill="none" stroke="${color}" stroke-width="6" stroke-dasharray="14 10"/>`;
    case "box":
      return `<path d="M150 230 L300 170 L450 230 L450 420 L300 480 L150 420 Z" fill="${color}" stroke="${accent}" stroke-width="6"/>
<path d="M150 230 L300 290 L450 230 M300 290 V480" fill="none" stroke="${accent}" stroke-width="6"/>
<path d="M225 200 L375 260" stroke="${accent}" stroke-width="18" stroke-opacity=".6"/>`;
    case "square":
      return `<path d="M180 180 H420 V420 H180 Z" fill="${color}" stroke="${accent}" stroke-width="6" transform="rotate(8 300 300)"/>
<path d="M220 240 L300 200 L380 240" fill="none" stroke="${accent}" stroke-width="8"/>`;
    case "post":
      return `<circle cx="300" cy="300" r="150" fill="${color}" opacity=".85"/>
<circle cx="210" cy="220" r="70" fill="${accent}" opacity=".5"/>
<rect x="330" y="330" width="150" height="110" rx="12" fill="${accent}" opacity=".4"/>`;
  }
}

export function renderProductSvg(spec: ProductImageSpec): string {
  const accent = spec.accent ?? "#1f2937";
  const view = spec.view ?? "front";
  const transform =
    view === "side"
      ? "translate(300 300) rotate(-12) scale(.92) translate(-300 -300)"
      : view === "detail"
        ? "translate(300 300) scale(1.45) translate(-300 -300)"
        : "";
  const label = spec.label
    ? `<text x="300" y="560" text-anchor="middle" font-family="system-ui, sans-serif" font-size="30" fill="#374151">${escapeXml(spec.label)}</text>`
    : "";
  const background = view === "detail" ? "#eef2f7" : view === "side" ? "#f6f1ea" : "#f3f4f6";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}" role="img"><rect width="${SIZE}" height="${SIZE}" fill="${background}"/><g transform="${transform}">${shapeMarkup(spec.shape, spec.color, accent)}</g>${label}</svg>`;
}

export const PRODUCT_IMAGE_SIZE = SIZE;
