import { useEffect, useEffectEvent, useRef, useState } from "react";
import { post } from "./checkout-client.ts";

const EMAIL_COOKIE = "ast_modern_checkout_useremail";

export type EmailNote = { kind: "success" | "error"; text: string };

interface Options {
  /** False for a signed-in customer: no detection. */
  enabled: boolean;
  hydrated: boolean;
  email: string;
  nonce: string;
  debounceMs: number;
  successMessage: string;
  errorMessage: string;
}

/**
 * E-mail detection (guests), docs/contract/storefront.md §4 table: 300 ms after typing stops; only the latest answer is applied.
 * It owns what the answer changes: the validation note, whether the login section is open, and the
 * create-account checkbox (hidden while the e-mail is empty; the check shows it for an unknown address).
 * The login label ('Returning customer? login') stays shown in every row, so nothing here hides it.
 */
export function useGuestEmailCheck({ enabled, hydrated, email, nonce, debounceMs, successMessage, errorMessage }: Options) {
  const [emailNote, setEmailNote] = useState<EmailNote | null>(null);
  const [loginOpen, setLoginOpen] = useState(false);
  const [showCreateAccount, setShowCreateAccount] = useState(false);
  const [createAccount, setCreateAccount] = useState(false);
  const checkSeq = useRef(0);

  const hideCreateAccount = () => {
    setShowCreateAccount(false);
    setCreateAccount(false);
  };

  // The nonce and the wording are read when the check runs; only the e-mail (and hydration) start one.
  const check = useEffectEvent(async (value: string, seq: number) => {
    const res = await post(
      "/wp-admin/admin-ajax.php",
      new URLSearchParams({ action: "astra_woo_check_user_exist", user_name_email: value, security: nonce }),
    ).catch(() => null);
    const body = res?.ok ? ((await res.json().catch(() => null)) as { data?: { success?: boolean; is_login_allowed?: boolean; error?: string } } | null) : null;
    if (seq !== checkSeq.current) return;
    // No answer, or a refusal (expired session, too many checks): the failure note, nothing else changes.
    if (!body?.data || body.data.error !== undefined) {
      setEmailNote({ kind: "error", text: errorMessage });
      return;
    }
    if (body.data.success) {
      // E-mail exists: the success note; when login is allowed, open the login section (if closed) and hide
      // create-account. (Login section already open: only the note.)
      setEmailNote({ kind: "success", text: successMessage });
      if (body.data.is_login_allowed) {
        setLoginOpen(true);
        hideCreateAccount();
      }
    } else {
      // Not found: close the login section if open; show create-account and its checkbox.
      setEmailNote(null);
      setLoginOpen(false);
      setShowCreateAccount(true);
    }
  });

  // E-mail empty: close the login section, hide the validation note, hide create-account. Done while rendering,
  // whenever what starts a check changes (the effect below then stores the cookie and drops any answer on its way).
  const checkKey = JSON.stringify([enabled, hydrated, debounceMs, email]);
  const [lastCheckKey, setLastCheckKey] = useState(checkKey);
  if (lastCheckKey !== checkKey) {
    setLastCheckKey(checkKey);
    if (enabled && hydrated && email.trim() === "") {
      setLoginOpen(false);
      setEmailNote(null);
      hideCreateAccount();
    }
  }

  useEffect(() => {
    if (!enabled || !hydrated) return;
    const value = email.trim();
    document.cookie = `${EMAIL_COOKIE}=${encodeURIComponent(value)}; path=/; SameSite=Lax`;
    const seq = ++checkSeq.current; // an answer still on its way for an earlier value is dropped
    if (value === "") return;
    const timer = setTimeout(() => void check(value, seq), debounceMs);
    return () => clearTimeout(timer);
  }, [email, hydrated, enabled, debounceMs]);

  return { emailNote, loginOpen, setLoginOpen, showCreateAccount, createAccount, setCreateAccount };
}
