/**
 * Mail delivery: when SMTP_URL is set, the outbox sender (core/mail/outbox-sender.ts) runs soon after start and
 * then every few seconds, one run at a time, and stops with the server. Without SMTP_URL the e-mails stay in
 * `email_outbox`. Every process of a shop may run it: the sender's leases keep each e-mail to one process.
 *
 * The sender and the e-mails turned off come from Settings › E-mails (`shop/v1/settings/emails`, decision 0032),
 * read before every send, MAIL_FROM standing in for what is not saved. What the admin's SMTP status shows of this
 * process's set-up (never the URL's password) and the wake-up a "Retry now" gives the sender are kept per shop
 * (`mailRuntime`).
 */
import type { Feature } from "./feature.ts";
import type { Db } from "../../core/db/client.ts";
import { deliverDueEmails, MAIL_DEFAULTS, type RunResult } from "../../core/mail/outbox-sender.ts";
import { createSmtpTransport, describeSmtpUrl, mailFromParts } from "../../core/mail/smtp.ts";
import { currentSiteConfig } from "../../core/commerce/site-settings.ts";
import { composeSender, turnedOffKinds } from "../../core/domain/mail/email-kinds.ts";
import type { AppServices } from "../services.ts";

const FIRST_RUN_MS = 250;
/** How long a shutdown waits for a send in flight before closing anyway (its row is then retried after its lease). */
const STOP_WAIT_MS = 10_000;

/** What the admin may know of this shop's mail set-up (server/features/email-outbox.ts). */
export interface MailRuntime {
  /** SMTP_URL's host, port and TLS, without its credentials; null when SMTP_URL is not set. */
  smtp: { host: string; port: number | null; secure: boolean; authenticated: boolean } | null;
  /** MAIL_FROM as set (or its default). */
  envFrom: string;
  /** Why no sender runs although SMTP_URL is set, or null. */
  problem: string | null;
  /** Whether a sender runs in this process. */
  running: boolean;
  /** Asks the sender for a run now (after "Retry now" or "Resend"); nothing when none runs. */
  wake(): void;
}

const runtimes = new WeakMap<Db, MailRuntime>();

/** This shop's mail set-up, as its mail feature started it (null before it started). */
export const mailRuntime = (db: Db): MailRuntime | null => runtimes.get(db) ?? null;

/** The From: header in effect and the kinds turned off, from Settings › E-mails over MAIL_FROM. */
export async function mailSettings(services: Pick<AppServices, "db" | "config">, envFrom: string): Promise<{ from: string; turnedOff: string[] }> {
  const fallback = mailFromParts(envFrom);
  const emails = (await currentSiteConfig(services)).emails;
  return {
    from: fallback ? composeSender(emails, { ...fallback, raw: envFrom }) : envFrom,
    turnedOff: turnedOffKinds(emails),
  };
}

export const mailFeature: Feature = {
  name: "mail",
  async start({ services, env }) {
    const { logger } = services;
    const smtp = env.SMTP_URL ? { ...describeSmtpUrl(env.SMTP_URL), authenticated: new URL(env.SMTP_URL).username !== "" } : null;
    const runtime: MailRuntime = { smtp, envFrom: env.MAIL_FROM, problem: null, running: false, wake: () => {} };
    runtimes.set(services.db, runtime);
    const forget = () => runtimes.get(services.db) === runtime && runtimes.delete(services.db);
    if (!env.SMTP_URL) {
      logger.info("SMTP_URL not set: e-mails stay in the outbox, no mail sender runs");
      return async () => void forget();
    }
    if (!mailFromParts(env.MAIL_FROM)) {
      runtime.problem = "MAIL_FROM names no single e-mail address: no mail sender runs.";
      logger.error("MAIL_FROM names no single e-mail address: e-mails stay in the outbox, no mail sender runs");
      return async () => void forget();
    }
    const transport = createSmtpTransport(env.SMTP_URL);
    const stopper = new AbortController();
    let timer: NodeJS.Timeout | null = null;
    let running: Promise<void> | null = null;
    let wanted = false;
    // A failed read of the settings must not hold the batch: MAIL_FROM and every kind on, as before the settings.
    const settings = () => mailSettings(services, env.MAIL_FROM).catch(() => ({ from: env.MAIL_FROM, turnedOff: [] }));

    const runOnce = async (): Promise<RunResult | null> => {
      try {
        const done = await deliverDueEmails({ db: services.db, transport, from: env.MAIL_FROM, settings, log: logger, signal: stopper.signal });
        if (done.sent || done.deferred || done.failed) logger.info("mail sender run", { ...done });
        return done;
      } catch (error) {
        logger.warn("mail sender failed", { error: (error as Error).message });
        return null;
      }
    };
    // A chain of timeouts, not an interval: a slow run is never overlapped by the next one.
    const schedule = (ms: number) => {
      if (stopper.signal.aborted) return;
      timer = setTimeout(() => {
        timer = null;
        wanted = false;
        running = runOnce().then((done) => {
          running = null;
          // A full batch means more may be waiting, and a wake-up during the run asked for another: go again at once.
          schedule((done && done.claimed >= MAIL_DEFAULTS.batchSize) || wanted ? 0 : env.MAIL_SEND_EVERY_MS);
        });
      }, ms);
      timer.unref();
    };
    runtime.running = true;
    runtime.wake = () => {
      if (stopper.signal.aborted) return;
      if (running) wanted = true;
      else if (timer) {
        clearTimeout(timer);
        schedule(0);
      }
    };
    schedule(Math.min(FIRST_RUN_MS, env.MAIL_SEND_EVERY_MS));
    logger.info("mail sender started", { ...describeSmtpUrl(env.SMTP_URL), everyMs: env.MAIL_SEND_EVERY_MS });

    return async () => {
      forget();
      stopper.abort();
      if (timer) clearTimeout(timer);
      if (running) {
        let waited: NodeJS.Timeout | undefined;
        await Promise.race([running, new Promise<void>((resolve) => (waited = setTimeout(resolve, STOP_WAIT_MS)))]);
        clearTimeout(waited);
      }
      transport.close();
    };
  },
};
