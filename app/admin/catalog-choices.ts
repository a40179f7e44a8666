/**
 * The products and categories an editor offers to pick from (coupon, discount rule and popup restrictions): the
 * first 100 of each by name, read once per screen from the REST API. A failed read leaves the list empty; the
 * editor still saves what it has.
 */
import { useEffect, useState } from "react";
import { getWithHeaders } from "./api.ts";

export interface Named {
  id: number;
  name: string;
}
export interface Category extends Named {
  slug: string;
}

export function useCatalogChoices(): { products: Named[]; categories: Category[] } {
  const [products, setProducts] = useState<Named[]>([]);
  const [categories, setCategories] = useState<Category[]>([]);
  useEffect(() => {
    let live = true;
    getWithHeaders<Named[]>("/wc/v3/products?per_page=100&orderby=title&order=asc&_fields=id,name").then(
      ({ body }) => live && setProducts(body),
      () => {},
    );
    getWithHeaders<Category[]>("/wc/v3/products/categories?per_page=100&orderby=name&order=asc&_fields=id,name,slug").then(
      ({ body }) => live && setCategories(body),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return { products, categories };
}
