import path from "node:path";
import { outboxMailer, smtpMailer, type Mailer } from "~/integrations/mail/mailer";
import type { Config } from "./config";
import type { Logger } from "./logger";

/** The mailer the configuration names: SMTP_URL, else the outbox in DATA_DIR (each message also logged). */
export function createMailer(config: Config, logger: Logger): Mailer {
  if (config.smtpUrl) return smtpMailer({ url: config.smtpUrl });
  return outboxMailer({
    dir: path.join(config.dataDir, "outbox"),
    // Without SMTP, a local user reads the message (and follows its link) from the log or the outbox file.
    onSend: (mail, file) => logger.info({ to: mail.to, subject: mail.subject, file }, `mail to outbox: ${mail.text}`),
  });
}
