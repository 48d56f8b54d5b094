import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';

// Partner spec §2 'OAuth authorize' and 'short-code authorize', §8 OAuth error codes: third-party
// applications an administrator registered act for a creator who authorized them, through the
// authorization-code flow with PKCE or, on devices, a 6-character short code.

/** What an application may ask for, with the words the consent screen shows. */
export const oauthScopes = {
  'profile:read': 'See your username and profile',
  'channel:read': 'See your channel and its streams',
} as const;
export type OAuthScope = keyof typeof oauthScopes;
const scopeIds = Object.keys(oauthScopes) as [OAuthScope, ...OAuthScope[]];
export const oauthScopeSchema = z.enum(scopeIds);

/** Spec §5: the short code is 6 characters (no 0/O, 1/I to read it off a screen). */
export const SHORT_CODE_LENGTH = 6;
export const SHORT_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const shortCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .transform((s) => s.replace(/[\s-]/g, ''))
  .pipe(z.string().length(SHORT_CODE_LENGTH, `Enter the ${SHORT_CODE_LENGTH}-character code shown on your device`));

export const applicationSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  name: z.string(),
  redirectUris: z.array(z.string()),
  scopes: z.array(oauthScopeSchema),
  createdAt: z.string(),
});
export type Application = z.infer<typeof applicationSchema>;

export const registerApplicationBodySchema = z.object({
  name: z.string().trim().min(1, 'This field is required').max(64),
  redirectUris: z
    .array(z.url({ protocol: /^https?$/, message: 'Enter an http(s) address' }))
    .min(1)
    .max(10),
  scopes: z.array(oauthScopeSchema).min(1),
});

export const listApplicationsEndpoint = defineEndpoint({
  id: 'listApplications',
  method: 'get',
  path: '/api/v1/admin/applications',
  summary: 'Third-party applications registered on this server (administrators).',
  tag: 'admin',
  access: 'admin',
  response: z.object({ applications: z.array(applicationSchema) }),
});

export const registerApplicationEndpoint = defineEndpoint({
  id: 'registerApplication',
  method: 'post',
  path: '/api/v1/admin/applications',
  summary: 'Register a third-party application: its name, redirect URIs and the scopes it may ask for; answers its client id.',
  tag: 'admin',
  access: 'admin',
  body: registerApplicationBodySchema,
  response: applicationSchema,
  successStatus: 201,
});

/** The authorization request as the application sent it (every part optional: a missing one is the §8 error). */
export const authorizeRequestSchema = z.object({
  client_id: z.string().max(200).optional(),
  redirect_uri: z.string().max(2000).optional(),
  response_type: z.string().max(50).optional(),
  scope: z.string().max(500).optional(),
  state: z.string().max(500).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
});
export type AuthorizeRequest = z.infer<typeof authorizeRequestSchema>;

export const consentSchema = z.object({
  application: z.object({ name: z.string(), clientId: z.string() }),
  scopes: z.array(z.object({ id: oauthScopeSchema, label: z.string() })),
  redirectUri: z.string(),
});
export type Consent = z.infer<typeof consentSchema>;

export const checkAuthorizeRequestEndpoint = defineEndpoint({
  id: 'checkAuthorizeRequest',
  method: 'get',
  path: '/api/v1/partner/oauth/authorize',
  summary: "OAuth authorize: checks an application's request (client, redirect_uri, response type, scopes, PKCE) and answers what the consent screen shows.",
  tag: 'partner',
  access: 'user',
  query: authorizeRequestSchema,
  response: consentSchema,
});

export const answerAuthorizeRequestEndpoint = defineEndpoint({
  id: 'answerAuthorizeRequest',
  method: 'post',
  path: '/api/v1/partner/oauth/authorize',
  summary: 'OAuth authorize: the creator allows or denies; answers where to send the browser (the redirect_uri with a code, or with error=access_denied).',
  tag: 'partner',
  access: 'user',
  body: authorizeRequestSchema.extend({ allowed: z.boolean() }),
  response: z.object({ redirectTo: z.string() }),
});

export const deviceAuthorizationBodySchema = z.object({ client_id: z.string().min(1).max(200), scope: z.string().max(500).optional() });
export const deviceAuthorizationResponseSchema = z.object({
  device_code: z.string(),
  user_code: z.string(),
  verification_uri: z.string(),
  verification_uri_complete: z.string(),
  expires_in: z.number().int(),
  interval: z.number().int(),
});

export const deviceAuthorizationEndpoint = defineEndpoint({
  id: 'deviceAuthorization',
  method: 'post',
  path: '/api/oauth/device_authorization',
  summary: 'Device authorization (RFC 8628): a device asks for a device code and the 6-character short code the creator enters.',
  tag: 'oauth',
  access: 'public',
  body: deviceAuthorizationBodySchema,
  response: deviceAuthorizationResponseSchema,
});

export const shortCodeBodySchema = z.object({ userCode: shortCodeSchema });

export const lookupShortCodeEndpoint = defineEndpoint({
  id: 'lookupShortCode',
  method: 'post',
  path: '/api/v1/partner/oauth/device/lookup',
  summary: 'Short-code authorize: which application a short code belongs to and what it asks for (attempts are rate limited).',
  tag: 'partner',
  access: 'user',
  body: shortCodeBodySchema,
  response: consentSchema.omit({ redirectUri: true }),
});

export const answerShortCodeEndpoint = defineEndpoint({
  id: 'answerShortCode',
  method: 'post',
  path: '/api/v1/partner/oauth/device/answer',
  summary: 'Short-code authorize: allow or deny the device.',
  tag: 'partner',
  access: 'user',
  body: shortCodeBodySchema.extend({ allowed: z.boolean() }),
  response: z.object({ allowed: z.boolean() }),
});

/** The token endpoint's body (RFC 6749 §4.1.3, RFC 8628 §3.4); answered in the RFCs' own shape. */
export const tokenRequestSchema = z.object({
  grant_type: z.string().max(100),
  code: z.string().max(200).optional(),
  redirect_uri: z.string().max(2000).optional(),
  client_id: z.string().max(200).optional(),
  code_verifier: z.string().max(200).optional(),
  device_code: z.string().max(200).optional(),
});
export const OAUTH_TOKEN_PATH = '/api/oauth/token';
export const OAUTH_USERINFO_PATH = '/api/oauth/userinfo';
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export const grantSchema = z.object({
  id: z.string(),
  application: z.object({ name: z.string(), clientId: z.string() }),
  scopes: z.array(z.object({ id: oauthScopeSchema, label: z.string() })),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Grant = z.infer<typeof grantSchema>;

export const listGrantsEndpoint = defineEndpoint({
  id: 'listApplicationGrants',
  method: 'get',
  path: '/api/v1/partner/applications',
  summary: 'Manage Applications: the applications the creator authorized.',
  tag: 'partner',
  access: 'user',
  response: z.object({ grants: z.array(grantSchema) }),
});

export const revokeGrantEndpoint = defineEndpoint({
  id: 'revokeApplicationGrant',
  method: 'delete',
  path: '/api/v1/partner/applications/:grantId',
  summary: "Manage Applications: revoke an application's access (its tokens stop working at once).",
  tag: 'partner',
  access: 'user',
  params: z.object({ grantId: z.uuid() }),
  response: z.null(),
  successStatus: 204,
});
