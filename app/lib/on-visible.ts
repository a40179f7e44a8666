/**
 * Runs `run` once when `el` comes within `rootMargin` of the viewport: what a page needs only once seen (the live
 * widgets' connection, issue 18) loads then, not with the page. Runs at once without an element or without
 * IntersectionObserver. Returns a cancel function.
 */
export function onVisible(el: Element | null, run: () => void, rootMargin = "200px"): () => void {
  if (!el || typeof IntersectionObserver === "undefined") {
    run();
    return () => undefined;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      run();
    },
    { rootMargin },
  );
  observer.observe(el);
  return () => observer.disconnect();
}
