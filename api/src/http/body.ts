import express, { type RequestHandler } from 'express';
import { findUnsafeText, OnAirError, unsafeTextMessage } from '@onair/protocol';

/** Whether the request carries a body at all (as type-is decides it). */
function hasBody(req: Parameters<RequestHandler>[0]): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
}

/**
 * Refuses text no store can hold (NUL, unpaired surrogates; protocol's text rule) in the parts of a
 * request that reach a handler. `mount()` applies the same rule to every endpoint of the contract;
 * this is the middleware form for routes outside it (sign-in).
 */
export function rejectUnsafeText(parts: readonly ('query' | 'body')[]): RequestHandler {
  return (req, _res, next) => {
    for (const where of parts) {
      const found = findUnsafeText(req[where]);
      if (found) {
        next(new OnAirError('VALIDATION_FAILED', unsafeTextMessage(where, found), { where, path: found.path, rule: 'unsafe-text' }));
        return;
      }
    }
    next();
  };
}

/**
 * Every body the api reads goes through here, with a size limit, before any handler sees it: JSON
 * (and, for sign-in, HTML form posts) are parsed and checked; a body of any other type is refused
 * unread, so no route parses an unbounded body of its own.
 */
export function bodyParsing(options: { limitBytes: number; forms?: boolean }): RequestHandler[] {
  const parsers: RequestHandler[] = [express.json({ limit: options.limitBytes })];
  if (options.forms) parsers.push(express.urlencoded({ extended: false, limit: options.limitBytes, parameterLimit: 100 }));
  const refuseOtherTypes: RequestHandler = (req, _res, next) => {
    next(req.body === undefined && hasBody(req) && req.method !== 'GET' && req.method !== 'HEAD' ? new OnAirError('UNSUPPORTED_MEDIA_TYPE') : undefined);
  };
  return [...parsers, refuseOtherTypes];
}
