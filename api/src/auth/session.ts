import type { IncomingMessage } from 'node:http';
import { fromNodeHeaders } from 'better-auth/node';
import type { Auth } from './auth.ts';

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/**
 * Who is calling, through better-auth: the `onair.session_token` cookie (signed), a session token
 * as `Authorization: Bearer` (bearer plugin), or a short-lived API JWT from /api/auth/token
 * (verified against our JWKS). Null when none is valid.
 */
export async function resolveSessionUserId(auth: Auth, req: Pick<IncomingMessage, 'headers'>): Promise<string | null> {
  const authorization = req.headers.authorization ?? '';
  const bearer = authorization.toLowerCase().startsWith('bearer ') ? authorization.slice(7).trim() : '';
  if (JWT_SHAPE.test(bearer)) {
    const verified = await auth.api.verifyJWT({ body: { token: bearer } }).catch(() => null);
    return verified?.payload?.sub ?? null;
  }
  const session = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) }).catch(() => null);
  return session?.user.id ?? null;
}
