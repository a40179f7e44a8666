/**
 * The product editor's Tags field (docs/contract/admin.md 'Edit Product'): WordPress's token field, where a name
 * that is no tag yet is created — `POST wc/v3/products/tags` (staff with `manage_product_terms`) — and added, as the
 * block editor's "Add New Tag" does. A name matching a tag already listed, in any case, takes that tag; one the
 * server already has beyond the first 100 (`term_exists` with its `resource_id`) is read and taken too. A refused
 * creation is said under the field, and the name is left out.
 */
import { useState } from "react";
import { FormTokenField } from "@wordpress/components";
import { getWithHeaders, send, type RestError } from "./api.ts";
import type { Term } from "./types.ts";

const same = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/** The tag named `name`: created, or the one the server says exists. */
async function createTag(name: string): Promise<Term> {
  try {
    return (await send<Term>("/wc/v3/products/tags", "POST", { name })).body;
  } catch (thrown) {
    const e = thrown as RestError;
    if (e.code === "term_exists" && e.data?.resource_id) return (await getWithHeaders<Term>(`/wc/v3/products/tags/${e.data.resource_id}`)).body;
    throw e;
  }
}

export function TagTokens({
  tags,
  onTagAdded,
  value,
  onChange,
  error,
}: {
  /** The tags offered (the first 100 by name). */
  tags: Term[];
  /** A tag created (or found) here, for the list offered. */
  onTagAdded: (tag: Term) => void;
  value: number[];
  /** The chosen ids; a function when it follows a creation that finished after other edits. */
  onChange: (change: (ids: number[]) => number[]) => void;
  error?: string | undefined;
}) {
  const [adding, setAdding] = useState<string[]>([]);
  const [refused, setRefused] = useState<string | null>(null);
  const nameOf = (id: number) => tags.find((t) => t.id === id)?.name ?? `#${id}`;

  const add = async (name: string) => {
    setAdding((now) => [...now, name]);
    try {
      const tag = await createTag(name);
      onTagAdded(tag);
      onChange((ids) => (ids.includes(tag.id) ? ids : [...ids, tag.id]));
    } catch (thrown) {
      setRefused(`The tag “${name}” was not added: ${(thrown as RestError).message}`);
    } finally {
      setAdding((now) => now.filter((n) => n !== name));
    }
  };

  return (
    <div className="admin-tokens">
      <FormTokenField
        __next40pxDefaultSize
        __experimentalExpandOnFocus
        label="Tags"
        value={[...value.map(nameOf), ...adding]}
        suggestions={tags.map((t) => t.name)}
        onChange={(tokens) => {
          setRefused(null);
          const ids: number[] = [];
          for (const token of tokens) {
            const name = (typeof token === "string" ? token : token.value).trim();
            if (!name || adding.includes(name)) continue;
            const known = tags.find((t) => same(t.name, name)) ?? tags.find((t) => `#${t.id}` === name);
            const id = known?.id ?? Number(/^#(\d+)$/.exec(name)?.[1] ?? NaN);
            if (Number.isInteger(id)) {
              if (!ids.includes(id)) ids.push(id);
            } else void add(name);
          }
          onChange(() => ids);
        }}
        __experimentalShowHowTo={false}
      />
      <p className="admin-hint">Type a new tag&apos;s name and press Enter to create it.</p>
      <p className="admin-hint" role="status">
        {adding.length ? `Adding ${adding.map((n) => `“${n}”`).join(", ")}…` : null}
      </p>
      {refused ? (
        <p className="admin-field-error" role="alert">
          {refused}
        </p>
      ) : null}
      {error ? <p className="admin-field-error">{error}</p> : null}
    </div>
  );
}
