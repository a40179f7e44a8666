/**
 * The demo catalogue as plain data, generated deterministically (a seeded PRNG),
 * so every fresh shop and every test starts from the same products.
 */
import type { ImageShape, ImageView } from "../../domain/media/product-image.ts";

export interface DemoTerm {
  taxonomy: "product_cat" | "product_tag" | "pa_color" | "pa_size";
  slug: string;
  name: string;
  description?: string;
  parent?: string;
  color?: string;
  menuOrder?: number;
}

export interface DemoImage {
  slug: string;
  shape: ImageShape;
  color: string;
  view: ImageView;
  alt: string;
}

export interface DemoVariation {
  sku: string;
  attributes: Record<string, string>; // attribute_pa_color → slug ('' = any)
  regularPrice: number;
  salePrice?: number;
  stock: number | null;
  image: DemoImage;
}

export interface DemoProduct {
  slug: string;
  name: string;
  type: "simple" | "variable" | "grouped" | "bundle" | "external" | "downloadable";
  sku: string;
  categories: string[];
  tags: string[];
  shortDescription: string;
  description: string;
  regularPrice?: number;
  salePrice?: number;
  stock: number | null;
  images: DemoImage[];
  attributes: { name: string; label: string; options: string[]; variation: boolean }[];
  variations: DemoVariation[];
  details: Record<string, unknown>;
  featured: boolean;
  menuOrder: number;
  daysOld: number;
  totalSales: number;
  reviews: { author: string; rating: number; content: string }[];
  upsells: string[];
  crossSells: string[];
  groupedChildren: string[];
}

export interface DemoPost {
  slug: string;
  title: string;
  excerpt: string;
  content: string;
  author: string;
  daysOld: number;
  image: DemoImage;
}

/** mulberry32: tiny, fast and good enough for demo data. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const COLORS = [
  { slug: "black", name: "Black", color: "#1f2937" },
  { slug: "navy", name: "Navy", color: "#1e3a8a" },
  { slug: "red", name: "Red", color: "#b91c1c" },
  { slug: "green", name: "Green", color: "#15803d" },
  { slug: "floral", name: "Floral", color: "#db2777" },
  { slug: "plaid", name: "Plaid", color: "#92400e" },
  { slug: "white", name: "White", color: "#e5e7eb" },
  { slug: "grey", name: "Grey", color: "#6b7280" },
] as const;

export const SIZES = [
  { slug: "s", name: "S" },
  { slug: "m", name: "M" },
  { slug: "l", name: "L" },
  { slug: "xl", name: "XL" },
] as const;

export const CATEGORIES: DemoTerm[] = [
  {
    taxonomy: "product_cat",
    slug: "face-masks",
    name: "Face Masks",
    description: "Washable, breathable face masks. 6 masks for $15, 12 masks for $24, free shipping on all mask purchases.",
    menuOrder: 1,
  },
  { taxonomy: "product_cat", slug: "mask-and-tie-sets", name: "Mask and Tie Sets", description: "A mask and a tie cut from the same cloth.", menuOrder: 2 },
  { taxonomy: "product_cat", slug: "ties", name: "Ties", description: "Silk, wool and cotton neckties.", menuOrder: 3 },
  { taxonomy: "product_cat", slug: "bow-ties", name: "Bow Ties", description: "Self-tie and pre-tied bow ties.", menuOrder: 4 },
  { taxonomy: "product_cat", slug: "accessories", name: "Accessories", description: "Pocket squares, filters and care kits.", menuOrder: 5 },
  { taxonomy: "product_cat", slug: "gift-sets", name: "Gift Sets", description: "Ready-made and build-your-own gift sets.", menuOrder: 6 },
  { taxonomy: "product_cat", slug: "sewing-patterns", name: "Sewing Patterns", description: "Downloadable patterns to make your own.", menuOrder: 7 },
];

const TAGS: DemoTerm[] = ["cotton", "silk", "wool", "washable", "wedding", "kids", "bestseller", "eco"].map((slug) => ({
  taxonomy: "product_tag" as const,
  slug,
  name: slug[0]!.toUpperCase() + slug.slice(1),
}));

/** The global attributes (migration 0024) whose terms are pa_color and pa_size. */
export const DEMO_ATTRIBUTES = [
  { slug: "color", name: "Color" },
  { slug: "size", name: "Size" },
];

export function demoTerms(): DemoTerm[] {
  return [
    ...CATEGORIES,
    ...TAGS,
    ...COLORS.map((c, i) => ({ taxonomy: "pa_color" as const, slug: c.slug, name: c.name, color: c.color, menuOrder: i })),
    ...SIZES.map((s, i) => ({ taxonomy: "pa_size" as const, slug: s.slug, name: s.name, menuOrder: i })),
  ];
}

const dollars = (n: number) => Math.round(n * 100);

export function demoCatalogue(seed = 20261122): { products: DemoProduct[]; posts: DemoPost[] } {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const reviewers = ["Ana", "Ben", "Chloé", "Dmitri", "Esi", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kemi", "Lea"];
  const reviewTexts = [
    "Fits well and washes nicely.",
    "Lovely colour, exactly as pictured.",
    "Good value for the price.",
    "Comfortable all day.",
    "Arrived quickly, well made.",
    "A little small for me.",
    "Gift for my partner, who loved it.",
  ];
  const reviewsFor = () =>
    random() < 0.7 ? Array.from({ length: int(1, 6) }, () => ({ author: pick(reviewers), rating: int(2, 5), content: pick(reviewTexts) })) : [];
  const image = (slug: string, shape: ImageShape, color: string, view: ImageView, alt: string): DemoImage => ({ slug, shape, color, view, alt });
  const gallery = (slug: string, shape: ImageShape, color: string, name: string) =>
    (["front", "side", "detail"] as const).map((view) => image(`${slug}-${view}`, shape, color, view, `${name} (${view})`));

  const products: DemoProduct[] = [];
  let order = 0;
  const base = (p: Partial<DemoProduct> & Pick<DemoProduct, "slug" | "name" | "type" | "categories">): DemoProduct => ({
    sku: `SKU-${p.slug.toUpperCase().slice(0, 24)}`,
    tags: [],
    shortDescription: "",
    description: "",
    stock: null,
    images: [],
    attributes: [],
    variations: [],
    details: {},
    featured: false,
    menuOrder: order++,
    daysOld: int(1, 400),
    totalSales: int(0, 900),
    reviews: reviewsFor(),
    upsells: [],
    crossSells: [],
    groupedChildren: [],
    ...p,
  });

  // Variable face masks: colour × size, some combinations sold out, some on sale.
  const variableMasks: [string, string, number, string[]][] = [
    ["cotton-face-mask", "Cotton Face Mask", 3, ["cotton", "washable", "bestseller"]],
    ["pleated-face-mask", "Pleated Face Mask", 3, ["cotton", "washable"]],
    ["silk-face-mask", "Silk Face Mask", 5, ["silk"]],
    ["kids-face-mask", "Kids Face Mask", 3, ["kids", "cotton"]],
    ["sport-face-mask", "Sport Face Mask", 4, ["washable", "eco"]],
    ["linen-face-mask", "Linen Face Mask", 4, ["eco"]],
  ];
  const rotated = (k: number) => [...COLORS.slice(k % COLORS.length), ...COLORS.slice(0, k % COLORS.length)];
  for (const [k, [slug, name, price, tags]] of variableMasks.entries()) {
    const colors = slug === "cotton-face-mask" ? COLORS : rotated(k + 1).slice(0, int(3, 6));
    const sizes = slug === "kids-face-mask" ? SIZES.slice(0, 2) : SIZES;
    const variations: DemoVariation[] = [];
    for (const c of colors) {
      for (const s of sizes) {
        const soldOut = random() < 0.15;
        const onSale = random() < 0.2;
        variations.push({
          sku: `${slug}-${c.slug}-${s.slug}`.toUpperCase(),
          attributes: { attribute_pa_color: c.slug, attribute_pa_size: s.slug },
          regularPrice: dollars(price),
          salePrice: onSale ? dollars(price) - 100 : undefined,
          stock: soldOut ? 0 : int(1, 60),
          image: image(`${slug}-${c.slug}`, "mask", c.color, "front", `${name} in ${c.name}`),
        });
      }
    }
    products.push(
      base({
        slug,
        name,
        type: "variable",
        categories: ["face-masks"],
        tags,
        shortDescription: `A ${name.toLowerCase()} in ${colors.length} colours and ${sizes.length} sizes. Counts toward 6 masks for $15 and 12 masks for $24.`,
        description: `${name}: two layers, adjustable ear loops and a nose wire. Machine washable at 60°C. Free shipping on all mask purchases.`,
        images: gallery(slug, "mask", colors[0]!.color, name),
        attributes: [
          { name: "pa_color", label: "Color", options: colors.map((c) => c.slug), variation: true },
          { name: "pa_size", label: "Size", options: sizes.map((s) => s.slug), variation: true },
        ],
        variations,
        featured: slug === "cotton-face-mask",
        crossSells: ["mask-filter-inserts", "mask-care-kit"],
        upsells: ["classic-mask-and-tie-set"],
      }),
    );
  }

  // Simple masks and mask packs.
  const simpleMasks: [string, string, number, number | null][] = [
    ["black-everyday-mask", "Black Everyday Mask", 3, 120],
    ["navy-everyday-mask", "Navy Everyday Mask", 3, 80],
    ["floral-print-mask", "Floral Print Mask", 3, 45],
    ["plaid-flannel-mask", "Plaid Flannel Mask", 3, 0],
    ["glow-in-the-dark-mask", "Glow-in-the-Dark Mask", 3, 30],
    ["clear-window-mask", "Clear Window Mask", 4, 25],
    ["organic-hemp-mask", "Organic Hemp Mask", 4, 60],
    ["merino-winter-mask", "Merino Winter Mask", 5, 15],
  ];
  simpleMasks.forEach(([slug, name, price, stock], i) => {
    const c = COLORS[i % COLORS.length]!;
    products.push(
      base({
        slug,
        name,
        type: "simple",
        categories: ["face-masks"],
        tags: ["washable"],
        regularPrice: dollars(price),
        salePrice: i === 2 ? dollars(price) - 100 : undefined,
        stock,
        shortDescription: `One ${name.toLowerCase()}. Mix with any masks: 6 for $15, 12 for $24.`,
        description: `${name}, cut and sewn in small batches. Free shipping on all mask purchases.`,
        images: [image(`${slug}-front`, "mask", c.color, "front", name), image(`${slug}-side`, "mask", c.color, "side", `${name} (side)`)],
        crossSells: ["mask-filter-inserts"],
      }),
    );
  });

  // Mask and tie sets (variable by colour only).
  const sets: [string, string, number][] = [
    ["classic-mask-and-tie-set", "Classic Mask and Tie Set", 39],
    ["wedding-mask-and-tie-set", "Wedding Mask and Tie Set", 59],
    ["paisley-mask-and-tie-set", "Paisley Mask and Tie Set", 45],
    ["tartan-mask-and-tie-set", "Tartan Mask and Tie Set", 45],
    ["polka-dot-mask-and-tie-set", "Polka Dot Mask and Tie Set", 42],
  ];
  for (const [k, [slug, name, price]] of sets.entries()) {
    const colors = rotated(k * 3 + 2).slice(0, int(3, 5));
    products.push(
      base({
        slug,
        name,
        type: "variable",
        categories: ["mask-and-tie-sets"],
        tags: slug.includes("wedding") ? ["wedding", "silk"] : ["cotton"],
        shortDescription: `A matching mask and tie in ${colors.length} colourways.`,
        description: `${name}: the mask and the tie are cut from the same bolt, so the pattern lines up.`,
        images: gallery(slug, "set", colors[0]!.color, name),
        attributes: [{ name: "pa_color", label: "Color", options: colors.map((c) => c.slug), variation: true }],
        variations: colors.map((c, k) => ({
          sku: `${slug}-${c.slug}`.toUpperCase(),
          attributes: { attribute_pa_color: c.slug },
          regularPrice: dollars(price),
          salePrice: k === 1 ? dollars(price * 0.8) : undefined,
          stock: k === colors.length - 1 ? 0 : int(2, 25),
          image: image(`${slug}-${c.slug}`, "set", c.color, "front", `${name} in ${c.name}`),
        })),
        crossSells: ["silk-pocket-square"],
        upsells: ["groomsmen-gift-box"],
      }),
    );
  }

  // Ties and bow ties.
  const ties: [string, string, number, "tie" | "bowtie", string][] = [
    ["silk-necktie", "Silk Necktie", 35, "tie", "ties"],
    ["wool-knit-tie", "Wool Knit Tie", 29, "tie", "ties"],
    ["skinny-cotton-tie", "Skinny Cotton Tie", 22, "tie", "ties"],
    ["paisley-silk-tie", "Paisley Silk Tie", 38, "tie", "ties"],
    ["striped-club-tie", "Striped Club Tie", 27, "tie", "ties"],
    ["linen-summer-tie", "Linen Summer Tie", 24, "tie", "ties"],
    ["velvet-bow-tie", "Velvet Bow Tie", 25, "bowtie", "bow-ties"],
    ["self-tie-silk-bow-tie", "Self-Tie Silk Bow Tie", 32, "bowtie", "bow-ties"],
    ["pre-tied-cotton-bow-tie", "Pre-Tied Cotton Bow Tie", 18, "bowtie", "bow-ties"],
    ["floral-bow-tie", "Floral Bow Tie", 21, "bowtie", "bow-ties"],
    ["knitted-silk-tie", "Knitted Silk Tie", 31, "tie", "ties"],
    ["herringbone-bow-tie", "Herringbone Bow Tie", 23, "bowtie", "bow-ties"],
  ];
  ties.forEach(([slug, name, price, shape, cat], i) => {
    const c = COLORS[(i * 3) % COLORS.length]!;
    const isVariable = i % 3 === 0;
    const colors = rotated(i * 5 + 1).slice(0, 4);
    products.push(
      base({
        slug,
        name,
        type: isVariable ? "variable" : "simple",
        categories: [cat],
        tags: [pick(["silk", "wool", "cotton"])],
        regularPrice: isVariable ? undefined : dollars(price),
        salePrice: !isVariable && i % 4 === 1 ? dollars(price - 5) : undefined,
        stock: isVariable ? null : int(0, 40),
        shortDescription: `${name}, hand finished.`,
        description: `${name}. Dry clean only.`,
        images: isVariable ? gallery(slug, shape, colors[0]!.color, name) : [image(`${slug}-front`, shape, c.color, "front", name)],
        attributes: isVariable ? [{ name: "pa_color", label: "Color", options: colors.map((x) => x.slug), variation: true }] : [],
        variations: isVariable
          ? colors.map((x, k) => ({
              sku: `${slug}-${x.slug}`.toUpperCase(),
              attributes: { attribute_pa_color: x.slug },
              regularPrice: dollars(price),
              salePrice: k === 2 ? dollars(price - 6) : undefined,
              stock: k === 3 ? 0 : int(3, 30),
              image: image(`${slug}-${x.slug}`, shape, x.color, "front", `${name} in ${x.name}`),
            }))
          : [],
        crossSells: ["silk-pocket-square"],
      }),
    );
  });

  // Accessories (simple).
  const accessories: [string, string, number, ImageShape, number | null][] = [
    ["mask-filter-inserts", "Mask Filter Inserts (20 pack)", 6, "square", 300],
    ["mask-care-kit", "Mask Care Kit", 12, "box", 40],
    ["silk-pocket-square", "Silk Pocket Square", 15, "square", 55],
    ["tie-clip", "Brushed Steel Tie Clip", 14, "square", 0],
    ["mask-lanyard", "Mask Lanyard", 5, "square", 200],
    ["travel-tie-case", "Travel Tie Case", 19, "box", 22],
  ];
  accessories.forEach(([slug, name, price, shape, stock], i) => {
    products.push(
      base({
        slug,
        name,
        type: "simple",
        categories: ["accessories"],
        regularPrice: dollars(price),
        stock,
        shortDescription: `${name}.`,
        description: `${name} — the small thing that makes the outfit.`,
        images: [image(`${slug}-front`, shape, COLORS[(i + 2) % COLORS.length]!.color, "front", name)],
      }),
    );
  });

  // Grouped, bundle, external and downloadable kinds.
  products.push(
    base({
      slug: "office-essentials",
      name: "Office Essentials",
      type: "grouped",
      categories: ["gift-sets"],
      shortDescription: "Pick any of the three: a tie, a mask and a pocket square.",
      description: "A grouped product: choose a quantity for each item.",
      images: [image("office-essentials-front", "box", "#334155", "front", "Office Essentials")],
      groupedChildren: ["silk-necktie", "black-everyday-mask", "silk-pocket-square"],
    }),
    base({
      slug: "groomsmen-gift-box",
      name: "Groomsmen Gift Box",
      type: "bundle",
      categories: ["gift-sets"],
      tags: ["wedding"],
      regularPrice: dollars(20),
      stock: 12,
      shortDescription: "Build a gift box: a tie and a mask, with an optional pocket square and clip.",
      description: "A bundle: the box (base price) plus the items you tick.",
      images: [image("groomsmen-gift-box-front", "box", "#7c2d12", "front", "Groomsmen Gift Box")],
      details: {
        bundledItems: [
          { bundledItemId: 1, product: "skinny-cotton-tie", quantity: 1, optional: false, discountPercent: 10 },
          { bundledItemId: 2, product: "black-everyday-mask", quantity: 2, optional: false, discountPercent: 0 },
          { bundledItemId: 3, product: "silk-pocket-square", quantity: 1, optional: true, discountPercent: 20 },
          { bundledItemId: 4, product: "tie-clip", quantity: 1, optional: true, discountPercent: 0 },
        ],
      },
    }),
    base({
      slug: "designer-silk-tie-partner",
      name: "Designer Silk Tie (partner store)",
      type: "external",
      categories: ["ties"],
      regularPrice: dollars(120),
      shortDescription: "Sold by our partner atelier.",
      description: "An external product: the button takes you to the partner's shop.",
      images: [image("designer-silk-tie-partner-front", "tie", "#4c1d95", "front", "Designer Silk Tie")],
      details: { productUrl: "https://atelier.example.com/designer-silk-tie", buttonText: "Buy at the atelier" },
    }),
    base({
      slug: "face-mask-sewing-pattern",
      name: "Face Mask Sewing Pattern (PDF)",
      type: "downloadable",
      categories: ["sewing-patterns"],
      regularPrice: dollars(4),
      shortDescription: "A printable pattern in three sizes.",
      description: "Downloadable: single price.",
      images: [image("face-mask-sewing-pattern-front", "pattern", "#0f766e", "front", "Face Mask Sewing Pattern")],
      details: { downloadId: 9001, priceMode: "single", files: [{ name: "mask-pattern.pdf" }] },
    }),
    base({
      slug: "tie-pattern-collection",
      name: "Tie Pattern Collection",
      type: "downloadable",
      categories: ["sewing-patterns"],
      regularPrice: dollars(6),
      shortDescription: "Necktie and bow tie patterns: choose one or all.",
      description: "Downloadable with several prices (multi mode).",
      images: [image("tie-pattern-collection-front", "pattern", "#9a3412", "front", "Tie Pattern Collection")],
      details: {
        downloadId: 9002,
        priceMode: "multi",
        prices: [
          { index: 1, name: "Necktie pattern", amount: dollars(6) },
          { index: 2, name: "Bow tie pattern", amount: dollars(5) },
          { index: 3, name: "Complete collection", amount: dollars(9) },
        ],
      },
    }),
    base({
      slug: "discontinued-mask",
      name: "Discontinued Mask",
      type: "simple",
      categories: ["face-masks"],
      regularPrice: dollars(3),
      stock: 10,
      shortDescription: "No longer sold (a draft product).",
      images: [image("discontinued-mask-front", "mask", "#9ca3af", "front", "Discontinued Mask")],
      details: { status: "draft" },
    }),
  );

  const posts: DemoPost[] = Array.from({ length: 14 }, (_, i) => {
    const topics = [
      "How to wash a face mask",
      "Choosing a tie for a wedding",
      "Matching masks and ties",
      "A short history of the bow tie",
      "Five ways to tie a tie",
      "Sewing your own mask",
      "Silk or cotton?",
      "Packing ties for travel",
      "Colours for winter",
      "Caring for wool ties",
      "Gift ideas for groomsmen",
      "Mask fit guide",
      "Behind the seams",
      "Our eco promise",
    ];
    const title = topics[i]!;
    const slug = title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
    return {
      slug,
      title,
      excerpt: `${title}: a quick guide from the workshop.`,
      content: `<p>${title}. We get asked about this a lot, so here is what we have learned in the workshop.</p><p>Start with good cloth, wash it gently and store it flat. When in doubt, ask us.</p>`,
      author: pick(["The Workshop", "Maya", "Tom"]),
      daysOld: i * 6 + 1,
      image: image(`post-${slug}`, "post", COLORS[i % COLORS.length]!.color, "front", title),
    };
  });

  return { products, posts };
}
