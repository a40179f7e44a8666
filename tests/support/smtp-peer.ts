/**
 * A real SMTP server for tests (smtp-server on 127.0.0.1, a free port) that keeps every message it accepts,
 * with its envelope, headers and decoded plain-text body. `rcptPolicy` lets a test answer RCPT TO with an
 * SMTP error (451 = try later, 550 = refused). No TLS and no AUTH: the shop's transport speaks plain SMTP to it.
 */
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  /** Header names lower-cased; values unfolded and decoded (RFC 2047). */
  headers: Record<string, string>;
  text: string;
  raw: string;
}

export interface SmtpPeer {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Recipients seen in RCPT TO, accepted or not, in order. */
  rcptSeen: string[];
  /** Returns an SMTP reply code to refuse a recipient, or null to accept it. */
  rcptPolicy: (address: string) => number | null;
  /** Milliseconds the peer waits before answering the end of DATA (to make senders overlap). */
  dataDelayMs: number;
  /** Polls until `predicate` finds a message, or throws after `timeoutMs`. */
  waitFor(predicate: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpPeer(): Promise<SmtpPeer> {
  const peer: SmtpPeer = {
    port: 0,
    url: "",
    received: [],
    rcptSeen: [],
    rcptPolicy: () => null,
    dataDelayMs: 0,
    async waitFor(predicate, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = peer.received.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching e-mail within ${timeoutMs} ms (${peer.received.length} received)`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    onRcptTo(address, _session, callback) {
      peer.rcptSeen.push(address.address);
      const code = peer.rcptPolicy(address.address);
      if (code === null) return callback();
      callback(Object.assign(new Error(code < 500 ? "Mailbox busy, try again later" : "No such user here"), { responseCode: code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        setTimeout(() => {
          peer.received.push({
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            ...parseMessage(raw),
            raw,
          });
          callback();
        }, peer.dataDelayMs);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  peer.port = (server.server.address() as { port: number }).port;
  peer.url = `smtp://127.0.0.1:${peer.port}`;
  return peer;
}

/** A small MIME reader for single-part text messages: enough to check what a mail client would show. */
export function parseMessage(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? "" : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const encoding = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  let bytes: Buffer;
  if (encoding === "base64") bytes = Buffer.from(body.replace(/\s+/g, ""), "base64");
  else if (encoding === "quoted-printable") bytes = decodeQuotedPrintable(body);
  else bytes = Buffer.from(body, "utf8");
  return { headers, text: bytes.toString("utf8").replace(/\r\n/g, "\n").replace(/\n$/, "") };
}

function decodeQuotedPrintable(s: string): Buffer {
  const soft = s.replace(/=\r?\n/g, "");
  const out: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(...Buffer.from(soft[i]!, "utf8"));
  }
  return Buffer.from(out);
}

/** RFC 2047 encoded words (=?utf-8?Q?…?= and =?utf-8?B?…?=); adjacent words join without the space between. */
function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : decodeQuotedPrintable(text.replace(/_/g, " ")).toString("utf8"),
    );
}
