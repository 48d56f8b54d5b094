import express, { type RequestHandler } from 'express';
import { findUnsafeText, OnAirError, unsafeTextMessage } from '@onair/protocol';

/** Whether the request carries a body at all (as type-is decides it). */
function hasBody(req: Parameters<RequestHandler>[0]): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
}

/**
 * Refuses text no store can hold (NUL, unpaired surrogates; protocol's text rule) in the query and
 * body of every request, whatever route it is for; `mount()` checks path parameters, which exist
 * only once a route matched.
 */
function rejectUnsafeText(parts: readonly ('query' | 'body')[]): RequestHandler {
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
 * Every request goes through here before any handler sees it: JSON bodies (and, for sign-in, HTML
 * form posts) are parsed under a size limit, a body of any other type is refused unread, so no
 * route parses an unbounded body of its own, and the query and body are held to the text rule.
 */
export function bodyParsing(options: { limitBytes: number; forms?: boolean }): RequestHandler[] {
  const parsers: RequestHandler[] = [express.json({ limit: options.limitBytes })];
  if (options.forms) parsers.push(express.urlencoded({ extended: false, limit: options.limitBytes, parameterLimit: 100 }));
  const refuseOtherTypes: RequestHandler = (req, _res, next) => {
    next(req.body === undefined && hasBody(req) && req.method !== 'GET' && req.method !== 'HEAD' ? new OnAirError('UNSUPPORTED_MEDIA_TYPE') : undefined);
  };
  return [...parsers, refuseOtherTypes, rejectUnsafeText(['query', 'body'])];
}

/** The text rule for the query of a route mounted before bodyParsing (one that reads its body itself, such as uploads). */
export function queryTextRule(): RequestHandler {
  return rejectUnsafeText(['query']);
}
