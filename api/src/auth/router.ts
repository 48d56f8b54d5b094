import type { RequestHandler } from 'express';
import { toNodeHandler } from 'better-auth/node';
import type { Auth } from './auth.ts';
import { CLIENT_IP_HEADER } from './guards.ts';
import { translateAuthResponse } from './responses.ts';

/**
 * Mounts better-auth's routes (/api/auth/*). It reads the raw body itself, so this must come
 * before express.json(). The client address is handed over in our own header, set from
 * Express's `req.ip` (which applies `trust proxy`), never from what the client sent.
 */
export function authHandler(auth: Auth): RequestHandler {
  const handle = toNodeHandler(async (request: Request) => translateAuthResponse(request.url, await auth.handler(request)));
  return (req, res, next) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? 'unknown';
    handle(req, res).catch(next);
  };
}
