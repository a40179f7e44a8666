/** The parts of WooCommerce's REST shapes (docs/contract/rest/products.md) the admin's screens read. */
export interface Term {
  id: number;
  name: string;
  slug: string;
  parent?: number;
}

export interface RestProduct {
  id: number;
  name: string;
  slug: string;
  permalink: string;
  type: string;
  status: string;
  downloadable: boolean;
  description: string;
  sku: string;
  price: string;
  regular_price: string;
  sale_price: string;
  date_on_sale_from: string | null;
  date_on_sale_to: string | null;
  on_sale: boolean;
  manage_stock: boolean;
  stock_quantity: number | null;
  stock_status: string;
  categories: { id: number; name: string; slug: string }[];
  images: { id: number; src: string; alt: string }[];
  date_created: string;
  date_modified: string;
}
