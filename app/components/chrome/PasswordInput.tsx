import { useState } from "react";

/** A password field with the spec's show/hide button ('Show password' / 'Hide password'). */
export function PasswordInput({
  name,
  id,
  autoComplete,
  minLength,
  required = true,
  value,
  onChange,
}: {
  name: string;
  id: string;
  autoComplete: string;
  minLength?: number;
  required?: boolean;
  value?: string;
  onChange?: (value: string) => void;
}) {
  const [visible, setVisible] = useState(false);
  const controlled = value !== undefined ? { value, onChange: (e: React.ChangeEvent<HTMLInputElement>) => onChange?.(e.target.value) } : {};
  return (
    <span className="password-input">
      <input type={visible ? "text" : "password"} className="input-text" name={name} id={id} autoComplete={autoComplete} required={required} minLength={minLength} maxLength={200} {...controlled} />
      <button type="button" className={`show-password-input${visible ? " display-password" : ""}`} aria-label={visible ? "Hide password" : "Show password"} aria-controls={id} onClick={() => setVisible((v) => !v)} />
    </span>
  );
}
