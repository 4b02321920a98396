import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Transporter } from "nodemailer";

export type MailMessage = { to: string; subject: string; text: string; html?: string };
export type SentMail = MailMessage & { id: string; from: string; sentAt: string };

/** Sends mail: over SMTP when configured, else into an outbox folder a local user can read. */
export type Mailer = { kind: "smtp" | "outbox"; send(message: MailMessage): Promise<SentMail> };

export const DEFAULT_FROM = "Oddwire <no-reply@oddwire.news>";

/** A mailer over an smtp:// or smtps:// URL (nodemailer, loaded with the first message: most processes never send one). */
export function smtpMailer(options: { url: string; from?: string }): Mailer {
  let transport: Promise<Transporter> | undefined;
  const from = options.from ?? DEFAULT_FROM;
  return {
    kind: "smtp",
    async send(message) {
      transport ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport(options.url));
      const info = await (await transport).sendMail({ from, ...message });
      return { ...message, from, id: String(info.messageId ?? randomUUID()), sentAt: new Date().toISOString() };
    },
  };
}

/** A mailer that writes each message as JSON into `dir` (newest last by name), for local use without SMTP. */
export function outboxMailer(options: { dir: string; from?: string; onSend?: (mail: SentMail, file: string) => void }): Mailer {
  const from = options.from ?? DEFAULT_FROM;
  return {
    kind: "outbox",
    async send(message) {
      await mkdir(options.dir, { recursive: true });
      const sentAt = new Date().toISOString();
      const mail: SentMail = { ...message, from, id: randomUUID(), sentAt };
      const file = path.join(options.dir, `${sentAt.replace(/[:.]/g, "-")}-${mail.id}.json`);
      await writeFile(file, `${JSON.stringify(mail, null, 2)}\n`, { mode: 0o600 });
      options.onSend?.(mail, file);
      return mail;
    },
  };
}

/** The messages in an outbox folder, oldest first. */
export async function readOutbox(dir: string): Promise<SentMail[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".json")).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return Promise.all(names.map(async (n) => JSON.parse(await readFile(path.join(dir, n), "utf8")) as SentMail));
}
