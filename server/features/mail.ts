/**
 * Mail delivery: when SMTP_URL is set, the outbox sender (core/mail/outbox-sender.ts) runs soon after start and
 * then every few seconds, one run at a time, and stops with the server. Without SMTP_URL the e-mails stay in
 * `email_outbox`. Every process of a shop may run it: the sender's leases keep each e-mail to one process.
 */
import type { Feature } from "./feature.ts";
import { deliverDueEmails, MAIL_DEFAULTS, type RunResult } from "../../core/mail/outbox-sender.ts";
import { createSmtpTransport, describeSmtpUrl, mailFromAddress } from "../../core/mail/smtp.ts";

const FIRST_RUN_MS = 250;
const EVERY_MS = 5_000;
/** How long a shutdown waits for a send in flight before closing anyway (its row is then retried after its lease). */
const STOP_WAIT_MS = 10_000;

export const mailFeature: Feature = {
  name: "mail",
  async start({ services, env }) {
    const { logger } = services;
    if (!env.SMTP_URL) {
      logger.info("SMTP_URL not set: e-mails stay in the outbox, no mail sender runs");
      return async () => {};
    }
    if (!mailFromAddress(env.MAIL_FROM)) {
      logger.error("MAIL_FROM names no single e-mail address: e-mails stay in the outbox, no mail sender runs");
      return async () => {};
    }
    const transport = createSmtpTransport(env.SMTP_URL);
    const stopper = new AbortController();
    let timer: NodeJS.Timeout | null = null;
    let running: Promise<void> | null = null;

    const runOnce = async (): Promise<RunResult | null> => {
      try {
        const done = await deliverDueEmails({ db: services.db, transport, from: env.MAIL_FROM, log: logger, signal: stopper.signal });
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
        running = runOnce().then((done) => {
          running = null;
          // A full batch means more may be waiting: go again at once.
          schedule(done && done.claimed >= MAIL_DEFAULTS.batchSize ? 0 : EVERY_MS);
        });
      }, ms);
      timer.unref();
    };
    schedule(FIRST_RUN_MS);
    logger.info("mail sender started", { ...describeSmtpUrl(env.SMTP_URL), everyMs: EVERY_MS });

    return async () => {
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
