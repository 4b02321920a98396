import { mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { outboxMailer, readOutbox, smtpMailer } from "./mailer";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the outbox mailer", () => {
  test("writes each message to the outbox, readable in order, by its owner only", async () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "oddwire-mail-")), "outbox");
    dirs.push(path.dirname(dir));
    const seen: string[] = [];
    const mailer = outboxMailer({ dir, onSend: (mail) => seen.push(mail.subject) });
    await mailer.send({ to: "a@oddwire.test", subject: "First", text: "one" });
    await mailer.send({ to: "b@oddwire.test", subject: "Second", text: "two https://example.test/verify?token=x" });
    const mails = await readOutbox(dir);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      ["a@oddwire.test", "First"],
      ["b@oddwire.test", "Second"],
    ]);
    expect(mails[1]?.text).toContain("verify?token=x");
    expect(seen).toEqual(["First", "Second"]);
    const [file] = (await import("node:fs")).readdirSync(dir);
    expect(statSync(path.join(dir, file!)).mode & 0o777).toBe(0o600);
  });

  test("an outbox that does not exist yet is empty", async () => {
    expect(await readOutbox(path.join(os.tmpdir(), "oddwire-no-such-outbox"))).toEqual([]);
  });
});

// A tiny SMTP server on 127.0.0.1 that accepts one message and keeps its DATA.
async function smtpSink(): Promise<{ port: number; received: string[]; close: () => Promise<void> }> {
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    let data = false;
    let buffer = "";
    socket.write("220 sink ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString();
      let index: number;
      while ((index = buffer.indexOf("\r\n")) !== -1) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (data) {
          if (line === ".") {
            data = false;
            socket.write("250 queued\r\n");
          } else received.push(line);
          continue;
        }
        const verb = line.split(" ")[0]!.toUpperCase();
        if (verb === "EHLO" || verb === "HELO") socket.write("250 sink\r\n");
        else if (verb === "DATA") {
          data = true;
          socket.write("354 go ahead\r\n");
        } else if (verb === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    received,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe("the SMTP mailer", () => {
  test("delivers the message to the SMTP server of SMTP_URL", async () => {
    const sink = await smtpSink();
    try {
      const mailer = smtpMailer({ url: `smtp://127.0.0.1:${sink.port}?ignoreTLS=true` });
      await mailer.send({ to: "editor@oddwire.test", subject: "Verify your e-mail", text: "Click the link" });
      const raw = sink.received.join("\n");
      expect(raw).toContain("To: editor@oddwire.test");
      expect(raw).toContain("Subject: Verify your e-mail");
      expect(raw).toContain("Click the link");
    } finally {
      await sink.close();
    }
  });
});
