// The SMS gateway path: codes are POSTed as JSON to SMS_WEBHOOK_URL (a real local HTTP server here).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './helpers/api-server.ts';
import { Browser, errorOf, inbox, signInByEmailCode, uniqueEmail } from './helpers/browser.ts';

describe('SMS through a gateway webhook', () => {
  let gateway: Server;
  let api: TestApi;
  const texts: { to: string; text: string }[] = [];
  let failing = false;

  beforeAll(async () => {
    gateway = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (failing) {
          res.writeHead(502).end();
          return;
        }
        texts.push(JSON.parse(Buffer.concat(chunks).toString()) as { to: string; text: string });
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    api = await startTestApi({ SMS_WEBHOOK_URL: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/sms` });
  });
  afterAll(async () => {
    await api?.close();
    await new Promise<void>((resolve) => gateway?.close(() => resolve()));
  });

  it('hands the code to the gateway (not the inbox), and the code verifies the number', async () => {
    const browser = await signInByEmailCode(api.url, uniqueEmail('gateway'));
    const phone = '+15557654321';
    expect((await browser.post('/api/auth/phone-number/send-otp', { phoneNumber: phone })).status).toBe(200);
    const sent = texts.find((t) => t.to === phone);
    expect(sent?.text).toMatch(/^Your OnAir code is \d{6}\. It expires in 5 minutes\.$/);
    expect(await inbox(api.url, phone)).toEqual([]);
    const code = /(\d{6})/.exec(sent!.text)![1]!;
    expect((await browser.post('/api/auth/phone-number/verify', { phoneNumber: phone, code, updatePhoneNumber: true })).status).toBe(200);
    expect(await (await browser.get('/api/v1/users/current')).json()).toMatchObject({ phoneNumber: phone });
  });

  it('answers DEPENDENCY_UNAVAILABLE when the gateway fails', async () => {
    failing = true;
    const res = await new Browser(api.url).post('/api/auth/phone-number/send-otp', { phoneNumber: '+15550001111' });
    expect(await errorOf(res)).toMatchObject({
      status: 503,
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'We could not send the SMS right now. Please try again in a moment.',
    });
    failing = false;
  });
});
