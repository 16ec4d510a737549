"use client";

import { useState } from "react";
import { MAX_KEY_FILE_BYTES } from "@/lib/providers";

/** A key file field: upload a PEM file or paste it; either way the field holds the text. */
export function KeyFileInput({
  id,
  value,
  onChange,
  onError,
  placeholder,
  describedBy,
  invalid,
  label,
}: {
  id: string;
  value: string;
  onChange: (text: string) => void;
  onError: (message: string) => void;
  placeholder?: string;
  describedBy: string;
  invalid: boolean;
  label: string;
}) {
  const [fileName, setFileName] = useState<string>();
  return (
    <div className="space-y-2">
      <input
        id={`${id}-file`}
        type="file"
        accept=".pem,.key,.pub,.txt,.crt,text/plain,application/x-pem-file"
        aria-label={`Upload ${label} file`}
        className="block text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm"
        onChange={async (event) => {
          const file = event.target.files?.[0];
          if (!file) return;
          if (file.size > MAX_KEY_FILE_BYTES) {
            setFileName(undefined);
            onError("Key file is larger than 64 KiB");
            return;
          }
          setFileName(file.name);
          onChange(await file.text());
        }}
      />
      {fileName ? <p className="text-xs text-slate-600">Loaded {fileName}</p> : null}
      <textarea
        id={id}
        rows={4}
        className="input font-mono text-xs"
        placeholder={placeholder ?? "-----BEGIN … KEY-----"}
        value={value}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        spellCheck={false}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
