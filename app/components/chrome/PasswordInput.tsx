import { useState } from "react";

/** A password field with the spec's show/hide button ('Show password' / 'Hide password'). */
export function PasswordInput({ name, id, autoComplete, minLength }: { name: string; id: string; autoComplete: string; minLength?: number }) {
  const [visible, setVisible] = useState(false);
  return (
    <span className="password-input">
      <input type={visible ? "text" : "password"} className="input-text" name={name} id={id} autoComplete={autoComplete} required minLength={minLength} maxLength={200} />
      <button type="button" className={`show-password-input${visible ? " display-password" : ""}`} aria-label={visible ? "Hide password" : "Show password"} aria-controls={id} onClick={() => setVisible((v) => !v)} />
    </span>
  );
}
