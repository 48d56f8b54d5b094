// Steps the e2e flows share: signing a user in, buying them Premium, and opening a new project's studio.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import pg from 'pg';
import { freeAfterTest } from './fixtures.ts';

/**
 * Signs in through the real e-mail code flow, reading the code from the development inbox. `origin`
 * (default: the stack's baseURL) decides which host the session cookie belongs to.
 */
export async function signIn(request: APIRequestContext, email: string, origin = ''): Promise<void> {
  expect((await request.post(`${origin}/api/auth/email-otp/send-verification-otp`, { data: { email, type: 'sign-in' } })).ok()).toBe(true);
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i++) {
    const inbox = (await (await request.get(`${origin}/api/v1/dev/inbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { text: string }[] };
    code = /\b(\d{6})\b/.exec(inbox.messages[0]?.text ?? '')?.[1];
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  if (!code) throw new Error('no sign-in code arrived');
  expect((await request.post(`${origin}/api/auth/sign-in/email-otp`, { data: { email, otp: code } })).ok()).toBe(true);
}

/**
 * Premium through the real flow: a checkout for Premium monthly, paid on the Stripe double's hosted
 * page with its test card (the stack runs the double in test mode), then the webhooks write the
 * subscription; returns once the api says Premium.
 */
export async function grantPremium(request: APIRequestContext): Promise<void> {
  const checkout = await request.post('/api/v1/billing/checkout', { data: { priceId: 'price_onair_premium_monthly' } });
  expect(checkout.ok(), await checkout.text()).toBe(true);
  const { url } = (await checkout.json()) as { url: string };
  const paid = await request.post(url, { form: { card: '4242 4242 4242 4242' }, maxRedirects: 0 });
  expect(paid.status()).toBe(303);
  await expect.poll(async () => ((await (await request.get('/api/v1/billing')).json()) as { role: string }).role, { timeout: 15_000 }).toBe('Premium');
}

/**
 * Creates a project from the home page under this name and waits for its studio; returns the project's id.
 * Flows that use it take `test` from ./fixtures.ts, which frees the project's session when the test ends.
 *
 * `template`: picked in the form. Without it the form's default (Beam) is kept and the camera is
 * then moved, by a scene patch as a creator's drag would, to the spec's default place of a new
 * source (40,40 640×360): the flows written before templates probe the program around that box.
 */
export async function openNewStudio(page: Page, name: string, origin = '', options: { template?: string } = {}): Promise<string> {
  await page.goto(`${origin}/`);
  await page.getByLabel('New project').fill(name);
  if (options.template) {
    await page.getByLabel('Template').click();
    await page.getByRole('option', { name: options.template, exact: true }).click();
  }
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page).toHaveURL(/\/studio\/[0-9a-f-]{36}$/);
  const projectId = /studio\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
  await freeAfterTest(projectId, page.context());
  if (!options.template) await placeCameraAtDefault(page.request, projectId, origin);
  return projectId;
}

async function placeCameraAtDefault(request: APIRequestContext, projectId: string, origin: string): Promise<void> {
  const doc = (await (await request.get(`${origin}/api/v1/projects/${projectId}/scene`)).json()) as {
    version: number;
    activeSceneId: string;
    sources: { id: string; kind: string }[];
    scenes: { id: string; layers: { id: string; sourceId: string }[] }[];
  };
  const camera = doc.sources.find((s) => s.kind === 'webcam');
  const layer = doc.scenes.find((s) => s.id === doc.activeSceneId)?.layers.find((l) => l.sourceId === camera?.id);
  if (!layer) return;
  const moved = await request.patch(`${origin}/api/v1/projects/${projectId}/scene`, {
    data: {
      baseVersion: doc.version,
      ops: [{ op: 'updateLayer', sceneId: doc.activeSceneId, layerId: layer.id, changes: { x: 40, y: 40, width: 640, height: 360 } }],
    },
  });
  expect(moved.status(), await moved.text()).toBe(200);
}

/**
 * The api's PUBLIC_URL is http://localhost:<port> (where Stripe's pages and e-mail links send the
 * browser back), while baseURL is 127.0.0.1: a flow that leaves the app and returns uses this origin
 * throughout, so its session cookie is the one the return lands on.
 */
export function publicOrigin(): string {
  const base = process.env.ONAIR_E2E_URL;
  if (!base) throw new Error('ONAIR_E2E_URL is not set (global-setup starts the stack)');
  const url = new URL(base);
  url.hostname = 'localhost';
  return url.origin;
}

/** Stands in for ADMIN_EMAILS, which the e2e stack does not set: the api reads userType on every request. */
export async function makeAdmin(email: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.ONAIR_E2E_DATABASE_URL });
  await client.connect();
  try {
    const { rowCount } = await client.query(`UPDATE users SET user_type = 'ADMIN' WHERE email = $1`, [email]);
    expect(rowCount).toBe(1);
  } finally {
    await client.end();
  }
}

/**
 * Gives `invitee` a role in the project the way people get one (spec §6): the host invites their
 * address, the invitation mail arrives in the development inbox, the invitee accepts it signed in.
 * Returns the invitee's user id.
 */
export async function inviteAndAccept(
  host: APIRequestContext,
  invitee: APIRequestContext,
  projectId: string,
  email: string,
  role: 'cohost' | 'contributor' | 'viewer',
): Promise<string> {
  const invited = await host.post(`/api/v1/projects/${projectId}/invitations`, { data: { email, role } });
  expect(invited.status(), await invited.text()).toBe(201);
  let token: string | undefined;
  for (let i = 0; i < 50 && !token; i++) {
    const inbox = (await (await invitee.get(`/api/v1/dev/inbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { text: string }[] };
    const match = inbox.messages.map((m) => /\/invitation\?token=([\w%-]+)/.exec(m.text)).find((m) => m !== null);
    token = match ? decodeURIComponent(match[1]!) : undefined;
    if (!token) await new Promise((r) => setTimeout(r, 100));
  }
  if (!token) throw new Error('no invitation mail arrived');
  const accepted = await invitee.post('/api/v1/invitations/accept', { data: { token } });
  expect(accepted.status(), await accepted.text()).toBe(200);
  const { members } = (await (await host.get(`/api/v1/projects/${projectId}/members`)).json()) as { members: { userId: string; email: string }[] };
  const member = members.find((m) => m.email.toLowerCase() === email.toLowerCase());
  if (!member) throw new Error('the invitee is not a member after accepting');
  return member.userId;
}

/**
 * End Broadcast as a creator does it since issue 52: the button, then 'End Broadcast' in its
 * confirmation, then Done on the summary that follows (a modal: the studio behind it is inert until closed).
 */
export async function confirmEndBroadcast(page: Page): Promise<void> {
  await page.getByRole('dialog', { name: 'End the broadcast?' }).getByRole('button', { name: 'End Broadcast' }).click();
  await page.getByRole('dialog', { name: 'Broadcast ended' }).getByRole('button', { name: 'Done' }).click({ timeout: 30_000 });
}
