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
  onKeyDown,
}: {
  name: string;
  id: string;
  autoComplete: string;
  minLength?: number;
  required?: boolean;
  value?: string;
  onChange?: (value: string) => void;
  onKeyDown?: (e: React.KeyboardEvent<HTMLInputElement>) => void;
}) {
  const [visible, setVisible] = useState(false);
  const controlled = value !== undefined ? { value, onChange: (e: React.ChangeEvent<HTMLInputElement>) => onChange?.(e.target.value) } : {};
  return (
    <span className="password-input">
      <input
        type={visible ? "text" : "password"}
        className="input-text"
        name={name}
        id={id}
        autoComplete={autoComplete}
        required={required}
        minLength={minLength}
        maxLength={200}
        onKeyDown={onKeyDown}
        {...controlled}
      />
      <button
        type="button"
        className={`show-password-input${visible ? " display-password" : ""}`}
        aria-label={visible ? "Hide password" : "Show password"}
        aria-controls={id}
        onClick={() => setVisible((v) => !v)}
      >
        {/* An inline icon: emoji glyphs are missing on systems without an emoji font. */}
        <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
          <circle cx="12" cy="12" r="3" />
          {visible ? <path d="M4 4l16 16" /> : null}
        </svg>
      </button>
    </span>
  );
}
