// The SMTP path: a real local SMTP server (smtp-server) receives OnAir's mail over a socket.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './helpers/api-server.ts';
import { Browser, errorOf, uniqueEmail } from './helpers/browser.ts';

interface Received {
  to: string[];
  raw: string;
}

describe('mail over SMTP', () => {
  let smtp: SMTPServer;
  let api: TestApi;
  const received: Received[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address.endsWith('@bounce.example.com')) {
          const refused = new Error('5.1.1 No such mailbox') as Error & { responseCode: number };
          refused.responseCode = 550;
          return callback(refused);
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString() });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    api = await startTestApi({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'OnAir <auth@onair.test>' });
  });
  afterAll(async () => {
    await api?.close();
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  });

  it('sends the sign-in code through the SMTP server, and the code signs in', async () => {
    const email = uniqueEmail('smtp');
    const browser = new Browser(api.url);
    expect((await browser.post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })).status).toBe(200);
    const mail = received.find((m) => m.to.includes(email));
    expect(mail).toBeDefined();
    expect(mail!.raw).toMatch(/^From: OnAir <auth@onair\.test>/m);
    const code = /^Subject: Your sign-in code: (\d{6})/m.exec(mail!.raw)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect((await browser.post('/api/auth/sign-in/email-otp', { email, otp: code })).status).toBe(200);
    expect((await browser.get('/api/v1/users/current')).status).toBe(200);

    // E-mail update to an address whose server refuses it: "not deliverable", nothing changes.
    const change = await browser.post('/api/auth/email-otp/request-email-change', { newEmail: 'ghost@bounce.example.com' });
    expect((await errorOf(change)).code).toBe('EMAIL_UNDELIVERABLE');
    expect(await (await browser.get('/api/v1/users/current')).json()).toMatchObject({ email });
  });

  it('reports an address the mail server refuses as EMAIL_UNDELIVERABLE', async () => {
    const res = await new Browser(api.url).post('/api/auth/sign-in/magic-link', { email: 'ghost@bounce.example.com', callbackURL: '/' });
    expect(await errorOf(res)).toEqual({
      status: 422,
      code: 'EMAIL_UNDELIVERABLE',
      message: 'We could not deliver mail to that address. Check it and try again.',
    });
  });

  it('serves no development inbox when mail really goes out', async () => {
    expect((await fetch(`${api.url}/api/v1/dev/inbox`)).status).toBe(404);
  });
});

describe('mail server down', () => {
  let api: TestApi;

  beforeAll(async () => {
    // A port that was free a moment ago: nothing answers there.
    const probe: Server = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    api = await startTestApi({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('answers MAIL_UNAVAILABLE (a service fault) and creates no user', async () => {
    const email = uniqueEmail('down');
    const res = await new Browser(api.url).post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
    expect(await errorOf(res)).toMatchObject({ status: 503, code: 'MAIL_UNAVAILABLE' });
    expect(await api.db.user.count({ where: { email } })).toBe(0);
  });
});
