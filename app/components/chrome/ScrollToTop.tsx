import { useEffect, useState } from "react";
import { SITE_CONFIG } from "../../../core/config/site-config.ts";

export function ScrollToTop() {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > SITE_CONFIG.layout.scrollToTopAfterPx);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  return (
    <a
      href="#masthead"
      id="ast-scroll-top"
      className={`scroll-to-top${visible ? " is-visible" : ""}`}
      aria-label="Scroll to top"
      hidden={!visible}
      onClick={(e) => {
        e.preventDefault();
        window.scrollTo({ top: 0, behavior: "smooth" });
      }}
    >
      ↑
    </a>
  );
}
