/**
 * A downloadable product's files in the editor (docs/contract/admin.md 'Downloads', decision 0041): each file's name
 * and address, "Upload a file" (to `POST shop/v1/downloadable-files`, stored where no address serves it) or an
 * earlier upload chosen from the list, "Remove {name}", and the download limit and expiry (blank = unlimited /
 * never). Saved as `downloads`, `download_limit` and `download_expiry` with the editor's Update.
 */
import { useEffect, useState } from "react";
import { Button, FormFileUpload, SelectControl, Spinner, TextControl } from "@wordpress/components";
import { getWithHeaders, uploadDownloadableFile, type DownloadableFile, type RestError } from "./api.ts";

export interface FormDownload {
  /** The saved file's id; "" for a file added since (the API gives it one). */
  id: string;
  name: string;
  file: string;
}

type Update = (change: (downloads: FormDownload[]) => FormDownload[]) => void;

interface Props {
  downloads: FormDownload[];
  update: Update;
  limit: string;
  expiry: string;
  onLimit: (v: string) => void;
  onExpiry: (v: string) => void;
  errors: Record<string, string>;
}

const withoutExtension = (name: string) => name.replace(/\.[^.]*$/, "");

export function DownloadsPanel({ downloads, update, limit, expiry, onLimit, onExpiry, errors }: Props) {
  const [uploads, setUploads] = useState<DownloadableFile[]>([]);
  const [chosen, setChosen] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState("");
  const [announce, setAnnounce] = useState("");
  useEffect(() => {
    let live = true;
    getWithHeaders<DownloadableFile[]>("/shop/v1/downloadable-files").then(
      ({ body }) => live && setUploads(body),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);

  const add = (f: { name: string; file: string }) => {
    update((list) => [...list, { id: "", name: withoutExtension(f.name), file: f.file }]);
    setAnnounce(`${f.name} added to the downloads.`);
  };

  async function upload(file: File | undefined) {
    if (!file) return;
    setFailure("");
    setBusy(file.name);
    try {
      const made = await uploadDownloadableFile(file);
      setUploads((u) => [made, ...u]);
      add(made);
    } catch (e) {
      setFailure(`Not uploaded: ${file.name}: ${(e as RestError).message}`);
    } finally {
      setBusy(null);
    }
  }

  const err = (key: string) => (errors[key] ? { help: <span className="admin-field-error">{errors[key]}</span>, "aria-invalid": true as const } : {});
  return (
    <fieldset className="admin-fieldset admin-downloads" aria-describedby={errors.downloads ? "downloads-error" : undefined}>
      <legend>Downloadable files</legend>
      {downloads.length ? (
        <ul className="admin-download-list">
          {downloads.map((d, i) => (
            <li key={`${d.id}-${i}`} className="admin-download-row">
              <TextControl
                __next40pxDefaultSize
                label={`File name ${i + 1}`}
                value={d.name}
                onChange={(v) => update((list) => list.map((x, j) => (j === i ? { ...x, name: v } : x)))}
              />
              <TextControl
                __next40pxDefaultSize
                type="url"
                label={`File URL ${i + 1}`}
                value={d.file}
                onChange={(v) => update((list) => list.map((x, j) => (j === i ? { ...x, file: v } : x)))}
              />
              <Button
                variant="tertiary"
                isDestructive
                onClick={() => {
                  update((list) => list.filter((_, j) => j !== i));
                  setAnnounce(`${d.name || "File"} removed.`);
                }}
              >
                Remove {d.name || `file ${i + 1}`}
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="admin-hint">No file yet: upload one, or choose an earlier upload.</p>
      )}
      <div className="admin-row admin-download-add">
        <FormFileUpload
          onChange={(e) => void upload(e.currentTarget.files?.[0])}
          render={({ openFileDialog }) => (
            <Button variant="secondary" onClick={openFileDialog} __next40pxDefaultSize>
              Upload a file
            </Button>
          )}
        />
        {uploads.length ? (
          <>
            <SelectControl
              __next40pxDefaultSize
              label="Earlier uploads"
              value={chosen}
              options={[{ value: "", label: "Choose a file…" }, ...uploads.map((u) => ({ value: u.file, label: u.name }))]}
              onChange={setChosen}
            />
            <Button
              variant="secondary"
              __next40pxDefaultSize
              aria-disabled={!chosen}
              onClick={() => {
                const u = uploads.find((x) => x.file === chosen);
                if (!u) return;
                add(u);
                setChosen("");
              }}
            >
              Add the chosen file
            </Button>
          </>
        ) : null}
      </div>
      <p className="admin-hint">
        Uploaded files are kept where no address serves them: shoppers get them only through their download links, after payment. A file elsewhere (an https
        address) is linked to instead.
      </p>
      <div role="status">
        {busy ? (
          <p>
            <Spinner /> Uploading {busy}…
          </p>
        ) : null}
        <span className="screen-reader-text">{announce}</span>
      </div>
      {failure ? (
        <p role="alert" className="admin-field-error">
          {failure}
        </p>
      ) : null}
      {errors.downloads ? (
        <p id="downloads-error" className="admin-field-error">
          {errors.downloads}
        </p>
      ) : null}
      <div className="admin-row">
        <TextControl
          __next40pxDefaultSize
          type="number"
          min={0}
          step={1}
          label="Download limit"
          help={errors.download_limit ? undefined : "Leave blank for unlimited re-downloads."}
          value={limit}
          onChange={onLimit}
          {...err("download_limit")}
        />
        <TextControl
          __next40pxDefaultSize
          type="number"
          min={0}
          step={1}
          label="Download expiry (days)"
          help={errors.download_expiry ? undefined : "The number of days before a download link expires, or blank for never."}
          value={expiry}
          onChange={onExpiry}
          {...err("download_expiry")}
        />
      </div>
    </fieldset>
  );
}
