import { uploadResponse, visibleMode } from "@/lib/api/dispute-responses";
import { readMultipartBody } from "@/lib/api/request";
import { withApiKey } from "@/lib/api/with-api-key";
import { uploadFile } from "@/lib/disputes/files";

/** Uploads one file (multipart/form-data: `file`, `purpose`): PDF, PNG or JPEG by its bytes, at most 5 MB; of the key's mode. */
export const POST = withApiKey(async ({ request, merchant, db, keyId, keyMode, testOnly }) => {
  const form = await readMultipartBody(request);
  const testMode = visibleMode(keyMode, testOnly) !== "live";
  return uploadResponse(
    await uploadFile(db, {
      merchantId: merchant.id,
      testMode,
      purpose: form.get("purpose") ?? undefined,
      file: form.get("file") ?? undefined,
      createdBy: keyId,
    }),
  );
});
