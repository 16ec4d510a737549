import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const merchants = pgTable("merchants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  commerceAccount: text("commerce_account").notNull().unique(),
  createdAt: createdAt(),
});

export const ROLES = ["owner", "support"] as const;
export type Role = (typeof ROLES)[number];

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(sql`lower(${t.email})`), index("users_merchant_idx").on(t.merchantId)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 of the key: keys carry 256 random bits, so a fast hash is safe and lookups stay O(1). */
    hash: text("hash").notNull().unique(),
    lastFour: text("last_four").notNull(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("api_keys_merchant_idx").on(t.merchantId)],
);

export const connections = pgTable(
  "connections",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    kind: text("kind").notNull(),
    label: text("label").notNull(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    enabled: boolean("enabled").notNull().default(true),
    currency: text("currency"),
    /** Non-secret credential fields, in clear (ids, URLs, toggles, public keys). */
    publicCredentials: jsonb("public_credentials").$type<Record<string, unknown>>().notNull(),
    /** Secret credential fields as one AES-256-GCM token (lib/vault). */
    secretCredentials: text("secret_credentials").notNull(),
    /** Masked form of each secret ("••••abcd"), so pages never decrypt to show them. */
    secretHints: jsonb("secret_hints").$type<Record<string, string>>().notNull(),
    constants: jsonb("constants").$type<Record<string, string>>().notNull().default({}),
    /** Set while the connection is enabled and its kind allows one per currency and mode (Provider D). */
    exclusiveKey: text("exclusive_key"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("connections_merchant_idx").on(t.merchantId),
    uniqueIndex("connections_label_unique")
      .on(t.merchantId, sql`lower(${t.label})`)
      .where(sql`${t.deletedAt} is null`),
    uniqueIndex("connections_exclusive_unique")
      .on(t.merchantId, t.exclusiveKey)
      .where(sql`${t.deletedAt} is null and ${t.exclusiveKey} is not null`),
  ],
);

export const connectionAudit = pgTable(
  "connection_audit",
  {
    id: text("id").primaryKey(),
    connectionId: text("connection_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    /** Names of what changed; never secret values. */
    changes: jsonb("changes").$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [index("connection_audit_connection_idx").on(t.connectionId, t.createdAt)],
);

/** Key pairs generated in the dashboard (Provider E) until a connection takes the private key. */
export const generatedKeys = pgTable("generated_keys", {
  id: text("id").primaryKey(),
  merchantId: text("merchant_id")
    .notNull()
    .references(() => merchants.id, { onDelete: "cascade" }),
  privateKey: text("private_key").notNull(),
  publicKey: text("public_key").notNull(),
  createdAt: createdAt(),
  consumedAt: timestamp("consumed_at", { withTimezone: true, mode: "date" }),
});
