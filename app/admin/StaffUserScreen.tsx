/**
 * Add / Edit staff user (docs/contract/admin.md 'Add staff user, Edit staff user'): `wp/v2/users` (context=edit) on
 * `@wordpress/components`. Adding asks the username, e-mail, names, role and either a password (the server's rule:
 * 8–200 characters, no "\") or the password-reset e-mail (`shop/v1/customers/{id}/password-reset`) with which they
 * choose their own; editing changes names, e-mail and role. Removing asks whom their content goes to (`reassign`).
 * The API's refusals are shown at the field they name — the last administrator's demotion under Role — and leaving
 * with unsaved changes asks first. The user's application passwords are ApplicationPasswords.tsx.
 */
import { useEffect, useId, useMemo, useState, type FormEvent } from "react";
import { Button, Notice, RadioControl, SelectControl, Spinner, TextControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import { getWithHeaders, query, send, type RestError } from "./api.ts";
import { useUnsavedWarning } from "./use-unsaved-warning.ts";
import { refusedSave, useFocusFirstInvalid, SaveNotice, type SaveNote } from "./SaveNotice.tsx";
import { ApplicationPasswords } from "./ApplicationPasswords.tsx";
import { roleLabel, STAFF_ROLES, type RestStaffUser } from "./staff-types.ts";

interface Form {
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  passwordChoice: "email" | "set";
  password: string;
}

const EMPTY: Form = { username: "", email: "", first_name: "", last_name: "", role: "shop_manager", passwordChoice: "email", password: "" };
const formOf = (u: RestStaffUser): Form => ({
  ...EMPTY,
  username: u.username,
  email: u.email,
  first_name: u.first_name,
  last_name: u.last_name,
  role: u.roles[0] ?? "",
});

/** What an edit sends: the changed fields only. */
function changes(before: Form, after: Form): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ["email", "first_name", "last_name"] as const) if (before[key] !== after[key]) out[key] = after[key];
  if (before.role !== after.role) out.roles = [after.role];
  return out;
}

const LABELS: Record<string, string> = {
  username: "Username",
  email: "E-mail",
  first_name: "First name",
  last_name: "Last name",
  roles: "Role",
  password: "Password",
};
/** REST names in a message → the form's labels; only snake_case names (a plain word like "password" stays as written). */
const humane = (message: string) => message.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (w) => LABELS[w] ?? w);

/** The API's refusal → the form's fields (REST names → the form's). */
function fieldErrors(e: RestError): Record<string, string> {
  switch (e.code) {
    case "existing_user_email":
    case "rest_user_invalid_email":
      return { email: "Another account already uses this e-mail address." };
    case "existing_user_login":
      return { username: "Another account already has this username." };
    case "rest_user_invalid_role":
    case "rest_cannot_edit_roles":
      return { role: e.message };
  }
  const params: unknown = e.data?.params;
  if (Array.isArray(params)) return Object.fromEntries(params.map((p: string) => [p === "roles" ? "role" : p, `${LABELS[p] ?? p} is required.`]));
  return Object.fromEntries(Object.entries(e.data?.params ?? {}).map(([field, message]) => [field === "roles" ? "role" : field, humane(message)]));
}

/** A password no one sees, for an account whose owner sets their own through the reset e-mail. */
function unguessablePassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, "x");
}

type Load =
  | { state: "loading" }
  | { state: "error"; error: RestError }
  | { state: "ready"; user: RestStaffUser | null; me: RestStaffUser; staff: RestStaffUser[]; saved: Form };

export default function StaffUserScreen({ id }: { id: number | null }) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const [notice, setNotice] = useState<SaveNote>(() => {
    const saved = new URLSearchParams(window.location.search).get("saved");
    if (saved === "invited") return { status: "success", text: "Staff user added. They were sent an e-mail with a link to choose their password." };
    if (saved === "created") return { status: "success", text: "Staff user added." };
    if (saved === "unsent") return { status: "warning", text: "Staff user added, but the e-mail was not sent. Use “Send password reset” below to try again." };
    return null;
  });
  const [saving, setSaving] = useState(false);
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const noticeId = useId();

  useEffect(() => {
    let live = true;
    const staffQuery = query({ context: "edit", roles: "administrator,shop_manager", per_page: 100, orderby: "name" });
    Promise.all([
      getWithHeaders<RestStaffUser>("/wp/v2/users/me?context=edit"),
      getWithHeaders<RestStaffUser[]>(`/wp/v2/users?${staffQuery}`),
      id === null ? Promise.resolve(null) : getWithHeaders<RestStaffUser>(`/wp/v2/users/${id}?context=edit`),
    ]).then(
      ([me, staff, user]) => {
        if (!live) return;
        const saved = user ? formOf(user.body) : EMPTY;
        setLoad({ state: "ready", me: me.body, staff: staff.body, user: user?.body ?? null, saved });
        setForm(saved);
      },
      (error: RestError) => live && setLoad({ state: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [id]);

  const dirty = useMemo(() => {
    if (load.state !== "ready" || leaveTo) return false;
    if (id === null) return JSON.stringify({ ...form, passwordChoice: "" }) !== JSON.stringify({ ...EMPTY, passwordChoice: "" });
    return Object.keys(changes(load.saved, form)).length > 0;
  }, [load, form, leaveTo, id]);
  useUnsavedWarning(dirty);
  useEffect(() => {
    if (leaveTo) window.location.assign(leaveTo);
  }, [leaveTo]);

  if (load.state === "loading") {
    return (
      <p role="status">
        <Spinner /> Loading the staff user…
      </p>
    );
  }
  if (load.state === "error") {
    return (
      <Notice status="error" isDismissible={false}>
        {load.error.code === "rest_user_invalid_id" ? "This user doesn’t exist. Perhaps they were removed?" : load.error.message}
      </Notice>
    );
  }
  const { user, me, staff } = load;
  const f = form;
  const self = user !== null && user.id === me.id;
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm({ ...f, [key]: value });
    if (errors[key]) setErrors(({ [key]: _, ...rest }) => rest);
  };
  const err = (key: string) => (errors[key] ? { help: <span className="admin-field-error">{errors[key]}</span>, "aria-invalid": true as const } : {});
  const refused = (e: unknown) => {
    const r = refusedSave(e as RestError, "", "staff user", fieldErrors);
    if (r.errors) {
      setErrors(r.errors);
      if (Object.keys(r.errors).length) focusFirstInvalid();
    }
    setNotice(r.note);
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (saving || load.state !== "ready") return;
    setNotice(null);
    if (id === null) {
      setSaving(true);
      const byEmail = f.passwordChoice === "email";
      try {
        const { body } = await send<RestStaffUser>("/wp/v2/users", "POST", {
          username: f.username,
          email: f.email,
          first_name: f.first_name,
          last_name: f.last_name,
          roles: [f.role],
          password: byEmail ? unguessablePassword() : f.password,
        });
        let saved = "created";
        if (byEmail)
          saved = await send(`/shop/v1/customers/${body.id}/password-reset`, "POST", {}).then(
            () => "invited",
            () => "unsent",
          );
        setLeaveTo(`/wp-admin/users/${body.id}/?saved=${saved}`);
      } catch (e) {
        refused(e);
        setSaving(false);
      }
      return;
    }
    const patch = changes(load.saved, f);
    if (!Object.keys(patch).length) {
      setNotice({ status: "warning", text: "Nothing to save: no field was changed." });
      return;
    }
    setSaving(true);
    try {
      const { body } = await send<RestStaffUser>(`/wp/v2/users/${id}`, "POST", patch);
      const saved = formOf(body);
      setLoad({ ...load, user: body, saved, me: body.id === me.id ? body : me });
      setForm(saved);
      setErrors({});
      setNotice({ status: "success", text: "Staff user updated." });
    } catch (e) {
      refused(e);
    } finally {
      setSaving(false);
    }
  }

  const roleOptions = [
    ...STAFF_ROLES.map((r) => ({ ...r })),
    // Taking away admin access without removing the account (and, shown as is, an account that already is a customer).
    ...(id !== null ? [{ value: "customer", label: "Customer (no admin access)" }] : []),
  ];
  const text = { __next40pxDefaultSize: true };
  return (
    <div className="admin-staff-user">
      <form className="admin-product-edit" onSubmit={save} noValidate aria-describedby={notice ? noticeId : undefined}>
        <SaveNotice id={noticeId} note={notice} reloadLabel="" onReload={() => {}} />
        <fieldset className="admin-fieldset">
          <legend>Account</legend>
          {id === null ? (
            <TextControl
              {...text}
              label="Username (required)"
              help={errors.username ? undefined : "Letters, digits, spaces and _ . - @. It cannot be changed later."}
              autoComplete="off"
              value={f.username}
              onChange={(v) => set("username", v)}
              {...err("username")}
            />
          ) : (
            <p>
              Username: <strong>{user?.username}</strong> · registered {user?.registered_date.slice(0, 10)}
              {self ? " · this is you" : ""}
            </p>
          )}
          <TextControl
            {...text}
            type="email"
            label="E-mail (required)"
            autoComplete="off"
            value={f.email}
            onChange={(v) => set("email", v)}
            {...err("email")}
          />
          <div className="admin-row">
            <TextControl {...text} label="First name" value={f.first_name} onChange={(v) => set("first_name", v)} {...err("first_name")} />
            <TextControl {...text} label="Last name" value={f.last_name} onChange={(v) => set("last_name", v)} {...err("last_name")} />
          </div>
          <SelectControl
            {...text}
            label="Role"
            value={f.role}
            options={roleOptions}
            help={
              errors.role
                ? undefined
                : self
                  ? "Your own role: the shop always keeps at least one administrator, so the last one cannot step down."
                  : "Administrators run everything, staff included; shop managers run the shop but not staff or settings."
            }
            onChange={(v) => set("role", v)}
            {...err("role")}
          />
          {id === null ? (
            <>
              <RadioControl
                label="Password"
                selected={f.passwordChoice}
                options={[
                  { value: "email", label: "Send them an e-mail with a link to choose their own password" },
                  { value: "set", label: "Set a password now (and give it to them yourself)" },
                ]}
                onChange={(v) => set("passwordChoice", v as Form["passwordChoice"])}
              />
              {f.passwordChoice === "set" || errors.password ? (
                <TextControl
                  {...text}
                  type="password"
                  label="New password"
                  autoComplete="new-password"
                  help={errors.password ? undefined : "8 to 200 characters, without a backslash (\\)."}
                  value={f.password}
                  onChange={(v) => set("password", v)}
                  {...err("password")}
                />
              ) : null}
            </>
          ) : null}
          <Button variant="primary" type="submit" isBusy={saving} aria-disabled={saving} __next40pxDefaultSize>
            {saving ? "Saving…" : id === null ? "Add staff user" : "Update"}
          </Button>
          {dirty ? <p className="admin-hint">Unsaved changes.</p> : null}
        </fieldset>
      </form>
      {user ? (
        <>
          <PasswordReset user={user} />
          <ApplicationPasswords user={user} />
          {self ? (
            <section className="admin-card" aria-labelledby="staff-remove">
              <h2 id="staff-remove">Remove</h2>
              <p>You cannot remove your own account here: another administrator can.</p>
            </section>
          ) : (
            <RemoveUser user={user} me={me} staff={staff} onRemoved={(to) => setLeaveTo(to)} />
          )}
        </>
      ) : null}
      <p>
        <a href="/wp-admin/users/">All staff</a>
      </p>
    </div>
  );
}

/** "Send password reset": WordPress's lost-password e-mail, with which they choose a new password. */
function PasswordReset({ user }: { user: RestStaffUser }) {
  const [note, setNote] = useState<SaveNote>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section className="admin-card" aria-labelledby="staff-reset">
      <h2 id="staff-reset">Password</h2>
      <p>Send {user.email} an e-mail with a link to choose a new password. Their current password works until they do.</p>
      <Button
        variant="secondary"
        isBusy={busy}
        aria-disabled={busy}
        __next40pxDefaultSize
        onClick={async () => {
          if (busy) return;
          setBusy(true);
          try {
            await send(`/shop/v1/customers/${user.id}/password-reset`, "POST", {});
            setNote({ status: "success", text: `A password reset e-mail was sent to ${user.email}.` });
          } catch (e) {
            setNote({ status: "error", text: `The e-mail was not sent: ${(e as RestError).message}` });
          } finally {
            setBusy(false);
          }
        }}
      >
        Send password reset
      </Button>
      <SaveNotice id="staff-reset-result" note={note} reloadLabel="" onReload={() => {}} />
    </section>
  );
}

/** Remove a staff user; WordPress requires saying whom their posts and pages go to (`reassign`). */
function RemoveUser({ user, me, staff, onRemoved }: { user: RestStaffUser; me: RestStaffUser; staff: RestStaffUser[]; onRemoved: (to: string) => void }) {
  const [open, setOpen] = useState(false);
  const [reassign, setReassign] = useState(String(me.id));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const others = staff.filter((s) => s.id !== user.id);
  const label = user.name || user.username;
  async function remove() {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await send(`/wp/v2/users/${user.id}?${query({ force: "true", reassign })}`, "DELETE", undefined);
      onRemoved(`/wp-admin/users/?deleted=${encodeURIComponent(label)}`);
    } catch (e) {
      setError((e as RestError).message);
      setBusy(false);
    }
  }
  return (
    <section className="admin-card" aria-labelledby="staff-remove">
      <h2 id="staff-remove">Remove</h2>
      {open ? (
        <div className="admin-confirm" role="group" aria-label={`Confirm removing ${label}`}>
          <p>
            Remove {label} ({roleLabel(user.roles[0])}) for good? They can no longer sign in, and their application passwords stop working.
          </p>
          <SelectControl
            __next40pxDefaultSize
            label="Their posts and pages go to"
            value={reassign}
            options={[
              ...others.map((s) => ({ value: String(s.id), label: `${s.name || s.username} (${roleLabel(s.roles[0])})${s.id === me.id ? " — you" : ""}` })),
              { value: "false", label: "Nobody (they keep no author)" },
            ]}
            onChange={setReassign}
          />
          <div role="alert">
            {error ? (
              <Notice status="error" isDismissible={false}>
                {error}
              </Notice>
            ) : null}
          </div>
          <div className="admin-buttons">
            <Button variant="primary" isDestructive isBusy={busy} aria-disabled={busy} onClick={remove} __next40pxDefaultSize>
              Remove permanently
            </Button>
            <Button variant="tertiary" onClick={() => setOpen(false)} __next40pxDefaultSize>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="secondary" isDestructive onClick={() => setOpen(true)} __next40pxDefaultSize>
          Remove staff user
        </Button>
      )}
    </section>
  );
}
