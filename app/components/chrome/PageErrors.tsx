/**
 * The notice area for script failures (app/lib/page-errors.ts): each distinct message once, as an error notice
 * (role alert) revealed like every other notice. Empty, it renders nothing.
 */
import { useEffect, useRef, useState } from "react";
import { PAGE_ERROR_EVENT } from "../../lib/page-errors.ts";
import { useRevealNotices } from "./Notices.tsx";

export function PageErrors() {
  const [messages, setMessages] = useState<string[]>([]);
  const ref = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const onError = (e: Event) => {
      const message = (e as CustomEvent<unknown>).detail;
      if (typeof message === "string") setMessages((list) => (list.includes(message) ? list : [...list, message]));
    };
    window.addEventListener(PAGE_ERROR_EVENT, onError);
    return () => window.removeEventListener(PAGE_ERROR_EVENT, onError);
  }, []);
  useRevealNotices(ref, messages.length ? messages : null);
  if (!messages.length) return null;
  return (
    <ul className="woocommerce-error page-errors" role="alert" tabIndex={-1} ref={ref}>
      {messages.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  );
}
