"use client";

import { useState, useTransition } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { generateKeyPairAction } from "@/lib/actions/connections";
import { getProvider } from "@/lib/providers";

/**
 * For a kind whose merchant makes its own pair (Provider E, spec 5.1 note 5). The private key stays
 * in the vault on the server; the public key comes back to download and send to the provider's manager.
 */
export function GenerateKeyPair({ form, providerSlug }: { form: UseFormReturn<FieldValues, unknown, FieldValues>; providerSlug: string }) {
  const providerName = getProvider(providerSlug)?.name ?? providerSlug;
  const [pending, startTransition] = useTransition();
  const [publicKey, setPublicKey] = useState<string>();
  const [message, setMessage] = useState<string>();
  return (
    <div className="rounded-md border border-slate-200 bg-slate-50 p-4 text-sm">
      <p className="font-medium">Don&apos;t have a key pair yet?</p>
      <p className="mt-1 text-slate-600">
        Generate one here: the private key is kept encrypted in our vault and never shown; download the public key and send it to your {providerName} manager.
      </p>
      <button
        type="button"
        className="btn-secondary mt-3"
        disabled={pending}
        aria-busy={pending}
        onClick={() =>
          startTransition(async () => {
            const result = await generateKeyPairAction({});
            if (!result.ok) return setMessage(result.message ?? "Could not generate a key pair.");
            setMessage(undefined);
            setPublicKey(result.data.publicKeyPem);
            form.setValue("credentials.public_key", result.data.publicKeyPem, { shouldValidate: true });
            form.setValue("credentials.generated_key_id", result.data.generatedKeyId);
            form.setValue("credentials.private_key", "");
            form.clearErrors("credentials.private_key");
          })
        }
      >
        {pending ? "Generating…" : "Generate key pair"}
      </button>
      {message ? (
        <p role="alert" className="mt-2 text-red-700">
          {message}
        </p>
      ) : null}
      {publicKey ? (
        <div role="status" className="mt-3 space-y-2">
          <p className="text-green-800">Key pair generated. The private key is in the vault and will be used when you save this connection.</p>
          <a
            className="btn-secondary"
            download={`${providerSlug}-public-key.pem`}
            href={`data:application/x-pem-file;charset=utf-8,${encodeURIComponent(publicKey)}`}
          >
            Download public key
          </a>
        </div>
      ) : null}
    </div>
  );
}
