import { keyFileField, textField } from "../fields";

/** Provider A issues the same four credentials for both connection kinds (spec 5.1, note 1). */
export const merchantIdField = textField({
  id: "merchant_id",
  label: "Merchant ID",
  help: "Shown in your Provider A merchant portal and in the welcome letter Provider A sends after approval.",
  maxLength: 64,
});

export const paymentKeyField = keyFileField({
  id: "payment_key",
  label: "Payment key",
  help: "The public key file Provider A issues with your account; download it from the merchant portal's key section.",
  pem: "public",
});

export const privateKeyField = keyFileField({
  id: "private_key",
  label: "Private key",
  help: "The private key file Provider A issues with your account. Upload the .pem file exactly as received.",
  pem: "private",
});

export const serviceCodeField = textField({
  id: "service_code",
  label: "Service code",
  help: "Listed next to the merchant ID in your Provider A merchant portal.",
  maxLength: 64,
});
