import path from "node:path";
import { outboxMailer, smtpMailer, type Mailer } from "~/integrations/mail/mailer";
import type { Config } from "./config";
import type { Logger } from "./logger";

/**
 * The mailer the configuration names: SMTP_URL, else the outbox in DATA_DIR (one file per message,
 * readable by its owner only). In production the log says where each message was written and never
 * what it says (its links sign in or reset passwords); in development the log also shows its text.
 */
export function createMailer(config: Config, logger: Logger): Mailer {
  if (config.smtpUrl) return smtpMailer({ url: config.smtpUrl });
  const showText = config.env !== "production";
  return outboxMailer({
    dir: path.join(config.dataDir, "outbox"),
    onSend: (mail, file) =>
      showText
        ? logger.info({ to: mail.to, subject: mail.subject, file }, `mail to outbox: ${mail.text}`)
        : logger.info({ to: mail.to, subject: mail.subject, file }, `mail written to the outbox (SMTP_URL is not set): ${file}`),
  });
}
