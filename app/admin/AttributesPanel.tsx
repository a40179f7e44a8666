/**
 * A variable product's attributes in the editor (docs/contract/admin.md 'Attributes and variations'): the shop's
 * global attributes (`wc/v3/products/attributes`, e.g. Color) with their terms as checkboxes, or a custom attribute
 * with values separated by "|" (trimmed when saved), each marked "Used for variations". Saved as the product's `attributes` with the
 * editor's Update; the variations are generated from what was saved (VariationsPanel.tsx).
 */
import { useEffect, useState } from "react";
import { Button, CheckboxControl, Notice, SelectControl, TextControl } from "@wordpress/components";
import { getWithHeaders, type RestError } from "./api.ts";

export interface FormAttribute {
  /** The global attribute's id; 0 for a custom attribute. */
  id: number;
  name: string;
  options: string[];
  variation: boolean;
  visible: boolean;
}

interface GlobalAttribute {
  id: number;
  name: string;
  slug: string;
}
interface AttributeTerm {
  id: number;
  name: string;
  slug: string;
}

type Update = (change: (attributes: FormAttribute[]) => FormAttribute[]) => void;

export function AttributesPanel({ attributes, update, error }: { attributes: FormAttribute[]; update: Update; error?: string }) {
  const [globals, setGlobals] = useState<GlobalAttribute[]>([]);
  const [terms, setTerms] = useState<Record<number, AttributeTerm[]>>({});
  const [loadError, setLoadError] = useState<RestError | null>(null);
  const [choice, setChoice] = useState("");
  const [customName, setCustomName] = useState("");
  const [customError, setCustomError] = useState("");

  useEffect(() => {
    getWithHeaders<GlobalAttribute[]>("/wc/v3/products/attributes").then(({ body }) => setGlobals(body), setLoadError);
  }, []);
  // The terms of every global attribute the product has.
  const globalIds = attributes.filter((a) => a.id > 0).map((a) => a.id);
  useEffect(() => {
    for (const id of globalIds) {
      if (terms[id]) continue;
      getWithHeaders<AttributeTerm[]>(`/wc/v3/products/attributes/${id}/terms?per_page=100&orderby=name`).then(
        ({ body }) => setTerms((t) => ({ ...t, [id]: body })),
        setLoadError,
      );
    }
  }, [globalIds.join(","), terms]); // eslint-disable-line react-hooks/exhaustive-deps

  const change = (index: number, patch: Partial<FormAttribute>) => update((all) => all.map((a, i) => (i === index ? { ...a, ...patch } : a)));
  const available = globals.filter((g) => !attributes.some((a) => a.id === g.id));

  function add() {
    if (choice === "custom") {
      const name = customName.trim();
      if (!name) return setCustomError("Name the attribute.");
      if (attributes.some((a) => a.name.toLowerCase() === name.toLowerCase())) return setCustomError("The product has this attribute already.");
      update((all) => [...all, { id: 0, name, options: [], variation: true, visible: true }]);
      setCustomName("");
      setCustomError("");
    } else {
      const g = globals.find((x) => String(x.id) === choice);
      if (!g) return;
      update((all) => [...all, { id: g.id, name: g.name, options: [], variation: true, visible: true }]);
    }
    setChoice("");
  }

  return (
    <fieldset className="admin-fieldset admin-attributes" aria-describedby={error ? "attributes-error" : undefined}>
      <legend>Attributes</legend>
      {loadError ? (
        <Notice status="error" isDismissible={false}>
          {loadError.message}
        </Notice>
      ) : null}
      {attributes.map((a, index) => (
        <fieldset key={`${a.id}-${a.name}`} className="admin-attribute">
          <legend>{a.name}</legend>
          {a.id > 0 ? (
            <div className="admin-attribute-terms">
              {(terms[a.id] ?? []).map((t) => (
                <CheckboxControl
                  key={t.id}
                  label={t.name}
                  checked={a.options.includes(t.name)}
                  onChange={(on) => {
                    const order = (terms[a.id] ?? []).map((x) => x.name);
                    const options = on ? [...a.options, t.name] : a.options.filter((o) => o !== t.name);
                    change(index, { options: options.sort((x, y) => order.indexOf(x) - order.indexOf(y)) });
                  }}
                />
              ))}
            </div>
          ) : (
            <TextControl
              __next40pxDefaultSize
              label={`${a.name}: values, separated by |`}
              value={a.options.join("|")}
              onChange={(v) => change(index, { options: v.split("|") })}
            />
          )}
          <CheckboxControl label="Used for variations" checked={a.variation} onChange={(on) => change(index, { variation: on })} />
          <CheckboxControl label="Visible on the product page" checked={a.visible} onChange={(on) => change(index, { visible: on })} />
          <Button variant="link" isDestructive onClick={() => update((all) => all.filter((_, i) => i !== index))}>
            Remove the attribute {a.name}
          </Button>
        </fieldset>
      ))}
      <div className="admin-row admin-attribute-add">
        <SelectControl
          __next40pxDefaultSize
          label="Add an attribute"
          value={choice}
          options={[
            { value: "", label: "Choose…" },
            ...available.map((g) => ({ value: String(g.id), label: g.name })),
            { value: "custom", label: "Custom attribute" },
          ]}
          onChange={setChoice}
        />
        {choice === "custom" ? (
          <TextControl
            __next40pxDefaultSize
            label="Attribute name"
            value={customName}
            onChange={(v) => {
              setCustomName(v);
              setCustomError("");
            }}
            {...(customError ? { help: <span className="admin-field-error">{customError}</span>, "aria-invalid": true as const } : {})}
          />
        ) : null}
        <Button variant="secondary" onClick={add} accessibleWhenDisabled disabled={!choice} __next40pxDefaultSize>
          Add
        </Button>
      </div>
      {error ? (
        <p id="attributes-error" className="admin-field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
