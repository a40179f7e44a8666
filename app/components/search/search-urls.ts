/** The product search's addresses (docs/contract/search-overlay.md): WordPress's results page and the suggest endpoint. */
export const searchResultsHref = (term: string): string => `/?s=${encodeURIComponent(term)}&post_type=product`;

export const suggestUrl = (term: string, limit: number): string => `/wp-json/shop/v1/search/suggest?q=${encodeURIComponent(term)}&limit=${limit}`;
