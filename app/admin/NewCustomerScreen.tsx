/**
 * Add customer (docs/contract/admin.md 'Add customer'): e-mail, names and optional addresses, `POST wc/v3/customers`
 * without a password — the server e-mails them WooCommerce's "New account" message with a link to set their own.
 * Refusals at their field (a taken e-mail, an invalid one, a bad country) with focus on the first; leaving with
 * unsaved changes asks first. Staff with `create_users` only (the server refuses the address to anyone else).
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import { Button } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "./admin-screens.css";
import { send, type RestError } from "./api.ts";
import { useUnsavedWarning } from "./use-unsaved-warning.ts";
import { refusedSave, useFocusFirstInvalid, SaveNotice, type SaveNote } from "./SaveNotice.tsx";
import { createBody, CustomerFields, customerFieldErrors, EMPTY_CUSTOMER, type CustomerForm } from "./CustomerForm.tsx";
import type { RestCustomer } from "./types.ts";

export default function NewCustomerScreen() {
  const [form, setForm] = useState<CustomerForm>(EMPTY_CUSTOMER);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<SaveNote>(null);
  const [saving, setSaving] = useState(false);
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const focusFirstInvalid = useFocusFirstInvalid();
  const noticeId = useId();
  useUnsavedWarning(!leaveTo && JSON.stringify(form) !== JSON.stringify(EMPTY_CUSTOMER));
  useEffect(() => {
    if (leaveTo) window.location.assign(leaveTo);
  }, [leaveTo]);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setNotice(null);
    if (!form.email.trim()) {
      setErrors({ email: "Enter the customer's e-mail address." });
      setNotice({ status: "error", text: "The customer was not saved: a field needs correcting." });
      focusFirstInvalid();
      return;
    }
    setSaving(true);
    try {
      const { body } = await send<RestCustomer>("/wc/v3/customers", "POST", createBody(form));
      setLeaveTo(`/wp-admin/customers/${body.id}/?saved=created`);
    } catch (e) {
      const r = refusedSave(e as RestError, "", "customer", customerFieldErrors);
      setErrors(r.errors ?? {});
      setNotice(r.note);
      if (r.errors && Object.keys(r.errors).length) focusFirstInvalid();
      setSaving(false);
    }
  }

  return (
    <div className="admin-customer">
      <form className="admin-product-edit" onSubmit={save} noValidate aria-describedby={notice ? noticeId : undefined}>
        <SaveNotice id={noticeId} note={notice} reloadLabel="" onReload={() => {}} />
        <p className="admin-hint">
          The customer gets an e-mail with their username and a link to set their own password. The addresses are optional: they pre-fill the checkout.
        </p>
        <CustomerFields
          form={form}
          errors={errors}
          onChange={(next, key) => {
            setForm(next);
            if (errors[key]) setErrors(({ [key]: _, ...rest }) => rest);
          }}
        />
        <div className="admin-buttons">
          <Button variant="primary" type="submit" isBusy={saving} aria-disabled={saving} __next40pxDefaultSize>
            {saving ? "Adding…" : "Add customer"}
          </Button>
        </div>
      </form>
      <p>
        <a href="/wp-admin/customers/">All customers</a>
      </p>
    </div>
  );
}
