/** The environment, parsed once at start-up. Server-only: never imported by browser code. */
import { z } from "zod";
import path from "node:path";

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres://")
    .optional(),
  /** Connections in the PostgreSQL pool of each process (DATABASE_URL only). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(500).default(10),
  /**
   * How long (ms) a request waits for a pool connection, or for its turn to place an order, before the shop answers
   * "busy, please try again" in the endpoint's own shape (never a bare 500).
   */
  DATABASE_WAIT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  REDIS_URL: z.string().optional(),
  /**
   * Server processes sharing the port (server/cluster.ts, decision 0033): a number, or "auto" for one per core when
   * DATABASE_URL and REDIS_URL are both set (else 1). Unset = auto.
   */
  WEB_CONCURRENCY: z
    .string()
    .regex(/^(auto|[1-9]\d?)$/, "WEB_CONCURRENCY must be a number from 1 to 99 or auto")
    .optional(),
  /** Redis key and pub/sub prefix of the hub (default "shop:rt"); lets several shops or test runs share one Redis. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/)
    .optional(),
  /** Signs session cookies and nonces. Generated and kept in DATA_DIR when not given. */
  SESSION_SECRET: z.string().min(32).optional(),
  SIMULATOR: z.enum(["on", "off"]).default("on"),
  SIMULATOR_SPEED: z.coerce.number().positive().default(1),
  /** Bearer token a live-score provider sends to the ingest endpoints; unset = ingest refused. */
  LIVE_INGEST_TOKEN: z.string().min(16).optional(),
  SEED_PRODUCTS: z.coerce.number().int().min(0).max(200_000).default(0),
  /** JSON deep-merged onto the site configuration's defaults, e.g. {"shop":{"infiniteScrollEvent":"scroll"}}. */
  SHOP_SETTINGS: z.string().max(100_000).optional(),
  /** Where order and account e-mails are delivered: smtp://user:pass@host:port (smtps:// for implicit TLS). Unset = they stay in the outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "SMTP_URL must start with smtp:// or smtps://")
    .optional(),
  /** The From: of the shop's e-mails. */
  MAIL_FROM: z.string().min(3).max(320).default("Maskerade <shop@localhost>"),
  /**
   * Age (ms) past which the reconciler treats an unfinished payment attempt as a dead call's, at start. The default
   * (30 s) is safe with several processes; a single-process shop may set 0 (every call before the start is dead).
   */
  PAYMENT_RECONCILE_STARTUP_AFTER_MS: z.coerce.number().int().min(0).max(86_400_000).default(30_000),
  /**
   * Which proxies may tell the client's address (X-Forwarded-For): Express's "trust proxy" — "loopback" (default),
   * a hop count ("1"), addresses/subnets ("10.0.0.0/8, 192.168.1.7") or "false". Sign-in limits count per address.
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(false|\d{1,2}|[\w.:/, -]{1,500})$/)
    .default("loopback"),
  /** Days the scheduled purge keeps expired sessions, auth events and abandoned guest carts (server/features/purge.ts). */
  PURGE_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /**
   * Server-side tracking destinations (docs/contract/wire.md §6.2): a Conversions-API-style endpoint and its token
   * (sent as a bearer token), a Measurement-Protocol-style endpoint and its secret (the `api_secret` argument).
   * Unset URL = that destination receives nothing and nothing is queued for it. Secrets: never printed into pages.
   */
  TRACKING_CAPI_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, "TRACKING_CAPI_URL must be http(s)")
    .optional(),
  TRACKING_CAPI_TOKEN: z.string().max(1000).optional(),
  TRACKING_MP_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, "TRACKING_MP_URL must be http(s)")
    .optional(),
  TRACKING_MP_SECRET: z.string().max(1000).optional(),
  /** How often the mail sender looks for due e-mails when nothing wakes it (a queued e-mail wakes it at once in its own process). */
  MAIL_SEND_EVERY_MS: z.coerce.number().int().min(50).max(600_000).default(5_000),
  /** The delivery worker's schedule: how often it looks for due events, the first retry's delay (doubling), its cap, and the give-up count. */
  TRACKING_SEND_EVERY_MS: z.coerce.number().int().min(50).max(600_000).default(2_000),
  TRACKING_RETRY_BASE_MS: z.coerce.number().int().min(10).max(86_400_000).default(30_000),
  TRACKING_RETRY_MAX_MS: z.coerce.number().int().min(10).max(86_400_000).default(3_600_000),
  TRACKING_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(20),
  /**
   * The first administrator, created on the first start when no administrator exists (docs/contract/rest/auth.md).
   * Unset: `admin@<site host or example.com>` with a random password printed once in the log. Never changes an
   * existing account's password.
   */
  ADMIN_EMAIL: z.string().trim().toLowerCase().max(254).email("ADMIN_EMAIL must be an e-mail address").optional(),
  ADMIN_PASSWORD: z.string().min(12, "ADMIN_PASSWORD must have at least 12 characters").max(200).optional(),
  /** The demo seed's shop manager, the same way (random password printed once when unset). */
  SHOP_MANAGER_EMAIL: z.string().trim().toLowerCase().max(254).email("SHOP_MANAGER_EMAIL must be an e-mail address").optional(),
  SHOP_MANAGER_PASSWORD: z.string().min(12, "SHOP_MANAGER_PASSWORD must have at least 12 characters").max(200).optional(),
  /** The largest image upload accepted by POST /wp-json/wp/v2/media, in bytes (docs/contract/rest/media.md). */
  MEDIA_MAX_BYTES: z.coerce.number().int().min(1024).max(1_073_741_824).default(10_485_760),
  /** The most pixels (width × height) an uploaded image may have: checked from its header, before decoding (decompression bombs). */
  MEDIA_MAX_PIXELS: z.coerce.number().int().min(1).max(268_402_689).default(50_000_000),
  /** TEST ONLY: the first N sub-size attempts fail (the upload-retry contract's tests). Refused when NODE_ENV=production. */
  MEDIA_FAIL_SUBSIZES: z.coerce.number().int().min(0).max(1000).default(0),
  /**
   * Private addresses (comma-separated IPs or CIDR ranges) the product import may still fetch images from, such as
   * the old shop on the owner's network; every other private, loopback or reserved address is refused (decision 0039).
   */
  IMPORT_ALLOWED_ADDRESSES: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((a) => a.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[0-9a-fA-F:.]+(\/\d{1,3})?$/, "IMPORT_ALLOWED_ADDRESSES: IP addresses or CIDR ranges, comma-separated"))),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // The anonymous page cache (docs/decisions/0028-page-cache.md): on/off, its memory, and what a CDN in front is told.
  PAGE_CACHE: z.enum(["on", "off"]).default("on"),
  PAGE_CACHE_MAX_BYTES: z.coerce.number().int().min(1_048_576).max(17_179_869_184).default(67_108_864),
  PAGE_CACHE_MAX_AGE: z.coerce.number().int().min(1).max(86_400).default(3600),
  PAGE_CACHE_S_MAXAGE: z.coerce.number().int().min(0).max(86_400).default(60),
  PAGE_CACHE_STALE_WHILE_REVALIDATE: z.coerce.number().int().min(0).max(86_400).default(30),
});

export type Env = z.infer<typeof schema> & { dataDir: string };

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ""));
  const result = schema
    .refine((env) => !(env.NODE_ENV === "production" && env.MEDIA_FAIL_SUBSIZES > 0), {
      path: ["MEDIA_FAIL_SUBSIZES"],
      message: "is a test-only fault and is refused when NODE_ENV=production",
    })
    .safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  return { ...result.data, dataDir: path.resolve(result.data.DATA_DIR) };
}
