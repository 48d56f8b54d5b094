// A browser's view of the one-machine stack for tests that drive it whole (the media worker's ingest
// flows, the stack's own shutdown): cookies kept across calls, sign-in through the development inbox
// (the stack has no SMTP), JSON in and out.

export class StackClient {
  private cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        origin: this.base,
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async must<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.call<T>(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async signIn(email: string): Promise<void> {
    await this.must('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
    let code: string | undefined;
    for (let i = 0; i < 100 && !code; i++) {
      const inbox = await this.must<{ messages: { text: string }[] }>('GET', `/api/v1/dev/inbox?to=${encodeURIComponent(email)}`);
      code = /\b(\d{6})\b/.exec(inbox.messages[0]?.text ?? '')?.[1];
      if (!code) await new Promise((r) => setTimeout(r, 100));
    }
    if (!code) throw new Error('no sign-in code arrived');
    await this.must('POST', '/api/auth/sign-in/email-otp', { email, otp: code });
  }
}
