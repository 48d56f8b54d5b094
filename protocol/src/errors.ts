import { z } from 'zod';

/**
 * The one error catalogue of OnAir. Every error that crosses a process boundary carries one of
 * these codes; `fault` tells a user-caused problem (bad input, bad stream key) apart from a
 * service fault, so the UI can word the first for a creator and page an operator for the second.
 */
export const errorCatalogue = {
  VALIDATION_FAILED: { status: 400, fault: 'user', message: 'The request is not valid.' },
  MALFORMED_JSON: { status: 400, fault: 'user', message: 'The request body is not valid JSON.' },
  /** A path or query with a broken percent-escape (`%E0`), which cannot be decoded. */
  MALFORMED_URL: { status: 400, fault: 'user', message: 'The address is not valid: it has a broken %-escape.' },
  /** Anything else the HTTP layer could not read (an aborted upload, a bad content encoding). */
  BAD_REQUEST: { status: 400, fault: 'user', message: 'The request could not be read.' },
  UNAUTHENTICATED: { status: 401, fault: 'user', message: 'You need to sign in first.' },
  FORBIDDEN: { status: 403, fault: 'user', message: 'You do not have permission to do that.' },
  NOT_FOUND: { status: 404, fault: 'user', message: 'Nothing was found at this address.' },
  CONFLICT: { status: 409, fault: 'user', message: 'The resource was changed by someone else.' },
  /** A scene patch breaks a rule of the scene model (one game source per scene, browser source size…); details.rule names it. */
  SCENE_RULE_VIOLATED: { status: 422, fault: 'user', message: 'This change to the scene is not allowed.' },
  /** The caller's plan does not include this (more scenes, hiding the logo, 1080p…); details.rule names it. */
  PLAN_LIMIT_REACHED: { status: 403, fault: 'user', message: 'Your plan does not include this. Upgrade to use it.' },
  /** The project owner's plan has `can-go-live` other than "true" (an operator suspended going live): Go Live and Auto Live are refused. */
  GO_LIVE_NOT_IN_PLAN: { status: 403, fault: 'user', message: 'Going live is switched off for this plan. See Plan & Billing, or contact support.' },
  /** The project owner's plan has `can-use-product` other than "true": no studio opens and no project is made. */
  PRODUCT_NOT_IN_PLAN: { status: 403, fault: 'user', message: 'The studio is switched off for this plan. See Plan & Billing, or contact support.' },
  PAYLOAD_TOO_LARGE: { status: 413, fault: 'user', message: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, fault: 'user', message: 'Send the request body as JSON.' },
  RATE_LIMITED: { status: 429, fault: 'user', message: 'Too many attempts. Please wait and try again.' },
  // ─── Sign-in and account (the outcomes of the login sequences of spec §4) ───
  /** The address is not an e-mail address. */
  EMAIL_INVALID: { status: 400, fault: 'user', message: 'Enter a valid e-mail address.' },
  /** A one-time code (e-mail or SMS) does not match. */
  CODE_INVALID: { status: 400, fault: 'user', message: 'That code is not right. Check it and try again.' },
  CODE_EXPIRED: { status: 400, fault: 'user', message: 'That code has expired. Ask for a new one.' },
  /** Too many wrong codes for one request: the code is used up and a new one must be asked for. */
  CODE_ATTEMPTS_EXCEEDED: { status: 429, fault: 'user', message: 'Too many wrong codes. Ask for a new one.' },
  /** A magic link that is unknown, expired or already used (links work once). */
  LINK_INVALID: { status: 400, fault: 'user', message: 'This sign-in link has expired or was already used. Ask for a new one.' },
  /** The authenticator (TOTP) code of a multi-factor sign-in or of enabling MFA does not match. */
  MFA_CODE_INVALID: { status: 400, fault: 'user', message: 'That authentication code is not right. Check your authenticator app.' },
  RECOVERY_CODE_INVALID: { status: 400, fault: 'user', message: 'That recovery code is not right or was already used.' },
  /** The pending multi-factor sign-in is unknown or timed out: sign in again. */
  MFA_SIGN_IN_EXPIRED: { status: 401, fault: 'user', message: 'Your sign-in timed out. Please sign in again.' },
  MFA_LOCKED: { status: 429, fault: 'user', message: 'Too many wrong authentication codes. Wait a few minutes and sign in again.' },
  MFA_ALREADY_ENABLED: { status: 409, fault: 'user', message: 'Multi-factor authentication is already on.' },
  MFA_NOT_ENABLED: { status: 409, fault: 'user', message: 'Multi-factor authentication is not on.' },
  PHONE_INVALID: { status: 400, fault: 'user', message: 'Enter a phone number in international format, such as +15551234567.' },
  PHONE_IN_USE: { status: 409, fault: 'user', message: 'That phone number belongs to another account.' },
  EMAIL_IN_USE: { status: 409, fault: 'user', message: 'That e-mail address belongs to another account.' },
  EMAIL_UNCHANGED: { status: 400, fault: 'user', message: 'That is already your e-mail address.' },
  /** The recipient's mail server refused the message (no such mailbox, domain without mail). */
  EMAIL_UNDELIVERABLE: { status: 422, fault: 'user', message: 'We could not deliver mail to that address. Check it and try again.' },
  /** The user refused the permission request at the OAuth provider. */
  OAUTH_DENIED: { status: 400, fault: 'user', message: 'Sign-in was cancelled at the provider.' },
  /** The provider's e-mail belongs to an OnAir account the provider cannot vouch for: sign in with the e-mail first. */
  OAUTH_ACCOUNT_NOT_LINKED: {
    status: 409,
    fault: 'user',
    message: 'This e-mail address already has an OnAir account. Sign in with your e-mail, then use this provider.',
  },
  /** The provider did not share an e-mail address, which every OnAir account needs. */
  OAUTH_EMAIL_MISSING: {
    status: 400,
    fault: 'user',
    message: 'The provider did not share your e-mail address. Allow access to it, or sign in with your e-mail.',
  },
  // ─── Money of the partner network (partner spec §5, §8) ───
  /** Tipping is switched off (by an operator during maintenance, or by the creator). */
  TIPS_NOT_AVAILABLE: { status: 409, fault: 'user', message: 'Tips Not Available' },
  /** A tip's amount outside the creator's limits, or settings outside §9's. */
  TIP_AMOUNT_INVALID: { status: 400, fault: 'user', message: 'That tip amount is not allowed here.' },
  /** A payout the rules of §5 refuse (balance, minimum, tax interview, payment method); the message says which. */
  PAYOUT_REFUSED: { status: 422, fault: 'user', message: 'Unable to request payout' },
  TAX_INTERVIEW_REQUIRED: { status: 422, fault: 'user', message: 'Complete the tax interview before requesting a payout.' },
  /** The payout provider refused or did not answer; nothing was taken from the balance. */
  PAYOUT_PROVIDER_FAILED: { status: 502, fault: 'service', message: 'Unable to request payout' },
  /** Payment details cannot be stored: the server has no SECRETS_KEY to seal them with. */
  MONEY_UNAVAILABLE: { status: 503, fault: 'service', message: 'Payments are not set up on this server.' },
  // ─── Plans and billing (spec §2 Plan & Billing, §4 Checkout) ───
  /** A checkout for a price the operator did not configure. */
  BILLING_UNKNOWN_PRICE: { status: 400, fault: 'user', message: 'That plan price is not on sale here.' },
  /** Checkout for the plan the user already has. */
  BILLING_PLAN_ALREADY_HELD: { status: 409, fault: 'user', message: 'You already have this plan. Manage it from Plan & Billing.' },
  /** Cancel, renew or the portal without a paid subscription (spec §6: only Premium users manage billing). */
  BILLING_NO_SUBSCRIPTION: { status: 403, fault: 'user', message: 'Only a paid plan has billing to manage. Upgrade first.' },
  /** A webhook whose Stripe-Signature does not verify (unsigned, wrongly signed, too old, replayed outside the tolerance). */
  BILLING_WEBHOOK_SIGNATURE_INVALID: { status: 400, fault: 'user', message: 'The webhook signature does not verify.' },
  /** No billing provider is configured on this server. */
  BILLING_UNAVAILABLE: { status: 503, fault: 'service', message: 'Plans cannot be bought on this server right now.' },
  /** The billing provider did not answer or refused a call. */
  BILLING_PROVIDER_FAILED: { status: 502, fault: 'service', message: 'The payment provider did not answer. Try again in a moment.' },

  // ─── The people of a project (spec §6) ───
  /** An invitation link that is unknown, withdrawn or already used. */
  INVITATION_INVALID: { status: 404, fault: 'user', message: 'This invitation is not valid any more. Ask the host to invite you again.' },
  INVITATION_EXPIRED: { status: 410, fault: 'user', message: 'This invitation has expired. Ask the host to invite you again.' },
  /** Accepted while signed in with another address than the one invited. */
  INVITATION_OTHER_ACCOUNT: {
    status: 403,
    fault: 'user',
    message: 'This invitation was sent to another e-mail address. Sign in with that address to accept it.',
  },
  /** The owner is always the host. */
  OWNER_ROLE_FIXED: { status: 422, fault: 'user', message: "The project's owner is always its host: that role cannot be changed or taken away." },
  // ─── The partner network (partner spec §5, §6, §8) ───
  USERNAME_TAKEN: { status: 409, fault: 'user', message: 'That username is taken. Try another one.' },
  /** Spec §5: the username can be changed again only some days after the last change; the message names the day. */
  USERNAME_CHANGE_TOO_SOON: { status: 409, fault: 'user', message: 'You changed your username recently. You can change it again later.' },
  /** Spec §5: at least one login method must remain connected. */
  LAST_LOGIN_METHOD: { status: 409, fault: 'user', message: 'Keep at least one way to sign in: connect another platform or verify your e-mail first.' },
  INVITE_ALREADY_COLLABORATES: { status: 409, fault: 'user', message: 'They already collaborate on your channel or have an invitation waiting.' },
  INVITE_TO_SELF: { status: 422, fault: 'user', message: 'This is your own channel: invite someone else.' },
  INVITE_NOT_FOUND: { status: 404, fault: 'user', message: 'This invitation no longer exists.' },
  /** Accept on an invitation that was declined, or decline one already accepted (leave instead). */
  INVITE_NOT_PENDING: { status: 409, fault: 'user', message: 'This invitation was already answered.' },
  /** Spec §6: acceptance requires a connected Twitch account. */
  TWITCH_ACCOUNT_REQUIRED: { status: 409, fault: 'user', message: 'Connect your Twitch account first (Settings › Integrations): collaborators need one.' },
  INVITE_LINK_INVALID: { status: 400, fault: 'user', message: 'This link is not valid any more: the invitation was answered or withdrawn.' },
  /** Partner spec §4: a deactivated account signed in again; it must be reactivated (or left to be erased) first. */
  ACCOUNT_PENDING_DELETION: { status: 403, fault: 'user', message: 'Your account is scheduled for deletion. Reactivate it to use OnAir again.' },
  /** Partner spec §5: deleting an account requires typing the own username. */
  DELETION_CONFIRMATION_MISMATCH: { status: 400, fault: 'user', message: 'Type your username exactly as it is shown to confirm.' },
  /** Reactivation of an account that is not pending deletion. */
  ACCOUNT_NOT_PENDING_DELETION: { status: 409, fault: 'user', message: 'Your account is not scheduled for deletion.' },
  /** One data export at a time. */
  EXPORT_IN_PROGRESS: { status: 409, fault: 'user', message: 'An export is already being prepared. Wait for it to finish, then ask for another.' },
  /** The archive's download link is past its expiry, or the export is not ready. */
  EXPORT_LINK_EXPIRED: { status: 410, fault: 'user', message: 'This download link has expired. Ask for a new export.' },
  EXPORT_NOT_READY: { status: 409, fault: 'user', message: 'This export is not ready yet.' },
  /** An avatar whose bytes are not the image type it claims, or not an image at all. */
  AVATAR_INVALID: { status: 400, fault: 'user', message: 'Upload a PNG, JPEG or WebP image of at most 0.5 MB.' },
  // Partner spec §8 OAuth authorize error codes.
  OAUTH_UNKNOWN_CLIENT: { status: 400, fault: 'user', message: 'This application is not registered here (wrong client ID). Tell its developer.' },
  OAUTH_REDIRECT_URI_INVALID: { status: 400, fault: 'user', message: 'The application sent a missing or mismatched redirect_uri. Tell its developer.' },
  /**
   * Partner spec §8 "response type must be code or token": OnAir takes code only (with PKCE). The
   * implicit grant (token) is deprecated by the OAuth 2.0 Security BCP (RFC 9700) and dropped in
   * OAuth 2.1: it hands the access token over in the address, where history and referrers leak it.
   */
  OAUTH_RESPONSE_TYPE_INVALID: {
    status: 400,
    fault: 'user',
    message:
      'The response type must be code or token, and OnAir takes code only: token (the implicit flow) puts the access token in the address, where browser history and referrers leak it. Tell the application’s developer to use code with PKCE.',
  },
  OAUTH_SCOPE_INVALID: { status: 400, fault: 'user', message: 'The application asked for permissions it may not have (invalid scopes). Tell its developer.' },
  OAUTH_PKCE_REQUIRED: { status: 400, fault: 'user', message: 'The application must use PKCE (a code_challenge with S256). Tell its developer.' },
  /** A short code that is unknown, expired or already answered. */
  SHORT_CODE_INVALID: { status: 404, fault: 'user', message: 'That code is not valid or has expired. Check the code on your device and try again.' },
  GRANT_NOT_FOUND: { status: 404, fault: 'user', message: 'This application has no access to your account.' },
  // ─── Guests by link (spec §2 Invite Guests panel, §6 "Guests join by link") ───
  /** A token that no link of this project ever had: mistyped, forged, or a link to another studio. */
  GUEST_LINK_INVALID: { status: 404, fault: 'user', message: 'This guest link is not valid for this studio. Ask the host to send you their guest link again.' },
  /** The host generated a new link since: this one admits nobody any more. */
  GUEST_LINK_REVOKED: { status: 410, fault: 'user', message: 'This guest link was replaced by a new one. Ask the host for the new guest link.' },
  GUEST_LINK_EXPIRED: { status: 410, fault: 'user', message: 'This guest link has expired. Ask the host for a new guest link.' },
  /** The host's plan admits no more guests now (details.maximum says how many it admits). */
  GUEST_LIMIT_REACHED: { status: 403, fault: 'user', message: 'This studio cannot take more guests right now.' },
  /** A guest session that ended (the guest left, was removed, or it timed out). */
  GUEST_SESSION_ENDED: { status: 401, fault: 'user', message: 'You are no longer in this studio. Open the guest link again to rejoin.' },
  // ─── Destinations and broadcasts ───
  /** An RTMP URL on a private, loopback or otherwise unreachable address; details.reason says which. */
  DESTINATION_ADDRESS_REFUSED: { status: 422, fault: 'user', message: 'That server address cannot be used: it points at a private or local network.' },
  /** A kind the server does not offer (YouTube by stream key, the local server where there is none). */
  DESTINATION_TYPE_UNAVAILABLE: { status: 422, fault: 'user', message: 'This kind of destination is not available here.' },
  /** A Facebook target (timeline, page, group, event) another Facebook destination of the project already streams to. */
  STREAM_TARGET_IN_USE: { status: 409, fault: 'user', message: 'Another Facebook destination already streams there. Pick another target.' },
  /** The platform account's tokens are missing, revoked or expired beyond refresh: authenticate again. */
  DESTINATION_AUTH_REQUIRED: { status: 409, fault: 'user', message: 'Your platform account requires authentication.' },
  /** The platform refused a call for a reason of the creator's account (not allowed to go live, target gone). */
  PLATFORM_REFUSED: { status: 422, fault: 'user', message: 'The platform refused the request.' },
  // ─── Platforms' test mode (the one-machine stack's doubles) ───
  /** The platform runs for real on this server (or not at all): the test-mode control panel has nothing to drive. */
  TEST_MODE_OFF: { status: 404, fault: 'user', message: 'This platform is not in test mode on this server.' },
  /** The act needs the test-mode platform live (a YouTube chat exists only during a broadcast). */
  TEST_MODE_NOT_LIVE: { status: 409, fault: 'user', message: 'This test-mode platform is not live yet. Go live with this destination first.' },
  /** A platform double did not answer the control panel (the one-machine stack stopped it, or it failed). */
  TEST_MODE_DOUBLE_UNAVAILABLE: { status: 503, fault: 'service', message: 'The test-mode platform did not answer. Restart OnAir and try again.' },
  // ─── A project's Local stream (issue 51) ───
  /** The studio's Watch player: the Local destination's stream has no playlist yet (nothing published to it, or not for long). */
  LOCAL_STREAM_NOT_LIVE: { status: 404, fault: 'user', message: 'Nothing is live on this address yet. Go live with Local on to watch it here.' },
  /** The operator's local RTMP server serves no HLS (LOCAL_RTMP_HLS_URL unset): the stream can be watched with a player only. */
  LOCAL_STREAM_NOT_WATCHABLE: {
    status: 404,
    fault: 'user',
    message: 'This server cannot play Local streams in the studio. Open the address in a player such as VLC.',
  },
  // ─── Platform chat (spec §5, §8) ───
  /** Writing in the platforms' chats needs a live broadcast. */
  CHAT_NOT_LIVE: { status: 409, fault: 'user', message: 'Start the stream to use the chat' },
  /** A target that is not a chat of the project that can receive messages. */
  CHAT_TARGET_INVALID: { status: 422, fault: 'user', message: 'Choose chats that can receive messages.' },
  /** Chat on screen: the message is not one of the project's (or no longer kept). */
  CHAT_MESSAGE_NOT_FOUND: { status: 404, fault: 'user', message: 'This chat message is no longer available. Pick another one.' },
  /** Chat on screen: a private message (a whisper to the channel) is never put in the program. */
  CHAT_MESSAGE_PRIVATE: { status: 422, fault: 'user', message: 'A private message cannot be shown on screen.' },
  // ─── Uploads (issue 19) ───
  /** The file is larger than the server accepts for its kind; refused before it is read. */
  UPLOAD_TOO_LARGE: { status: 413, fault: 'user', message: 'This file is too large.' },
  /** The file would take the owner's storage past the quota; refused before it is read. */
  UPLOAD_QUOTA_EXCEEDED: { status: 413, fault: 'user', message: 'Your storage is full. Delete files you no longer need and try again.' },
  /** The content is not one of the accepted image or video types, whatever its name says. */
  UPLOAD_TYPE_UNSUPPORTED: {
    status: 415,
    fault: 'user',
    message: 'This file type is not supported. Upload a PNG, JPEG, WebP or GIF image, an MP4 or WebM video, or an MP3, Ogg or WAV sound.',
  },
  /** The file is of an accepted type but cannot be played (truncated, an undecodable codec, too many pixels). */
  UPLOAD_UNREADABLE: { status: 422, fault: 'user', message: 'This file cannot be used: it is damaged or in a format we cannot play.' },
  /** The upload is used by a source of the project. */
  UPLOAD_IN_USE: { status: 409, fault: 'user', message: 'This file is used in a scene. Remove it from the scene first.' },
  // ─── Chatbot (partner spec §2, §3, §9; issue 22) ───
  /** Another command of the channel has that name (names compare without case). */
  CHATBOT_COMMAND_TAKEN: { status: 409, fault: 'user', message: 'A command with this name already exists. Choose another name.' },
  /** A command, timer, quote or user that is not (or no longer) in the channel's list. */
  CHATBOT_ITEM_NOT_FOUND: { status: 404, fault: 'user', message: 'This item no longer exists. Reload the page.' },
  /** A list at its largest (details.maximum). */
  CHATBOT_LIST_FULL: { status: 422, fault: 'user', message: 'This list is full. Remove an entry to add another.' },
  /** A banned-word pattern the filter cannot run (backreferences, lookaround, bad syntax); details.pattern. */
  CHATBOT_PATTERN_INVALID: { status: 422, fault: 'user', message: 'One of the banned-word patterns cannot be used.' },
  /** The user is already in that list. */
  CHATBOT_USER_LISTED: { status: 409, fault: 'user', message: 'This user is already in the list.' },
  /** The channel has no Twitch account linked: the bot has no chat to join. */
  CHATBOT_NO_TWITCH: { status: 409, fault: 'user', message: 'Link your Twitch account in Settings › Integrations first: the chatbot works in Twitch chat.' },
  /** A giveaway is open already: one at a time per channel (issue 40). */
  CHATBOT_RAFFLE_OPEN: { status: 409, fault: 'user', message: 'A giveaway is already running. Draw or cancel it before opening another.' },
  /** The giveaway was drawn or cancelled already. */
  CHATBOT_RAFFLE_CLOSED: { status: 409, fault: 'user', message: 'This giveaway is over already.' },
  INTERNAL: { status: 500, fault: 'service', message: 'Something went wrong on our side.' },
  /** A job whose payload does not parse with its queue's schema (protocol queues.ts): refused by the producer, failed by the consumer. */
  JOB_INVALID: { status: 500, fault: 'service', message: 'A background job was not valid.' },
  DEPENDENCY_UNAVAILABLE: { status: 503, fault: 'service', message: 'A service OnAir depends on is unavailable.' },
  /** The OAuth provider failed the exchange (bad client configuration, provider error). */
  OAUTH_FAILED: { status: 502, fault: 'service', message: 'Sign-in with that provider did not work. Try again or use your e-mail.' },
  /** A streaming platform's API failed or could not be reached. */
  PLATFORM_UNAVAILABLE: { status: 502, fault: 'service', message: 'The streaming platform did not answer. Try again in a moment.' },
  /** Our mail server (SMTP) could not be reached or refused to send. */
  MAIL_UNAVAILABLE: { status: 503, fault: 'service', message: 'We could not send the e-mail right now. Please try again in a moment.' },
} as const satisfies Record<string, { status: number; fault: 'user' | 'service'; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;
export const errorCodes = Object.keys(errorCatalogue) as [ErrorCode, ...ErrorCode[]];

/** The single error body every HTTP error of the api uses. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** An error that knows its catalogue entry; thrown anywhere in an app, rendered once at the edge. */
export class OnAirError extends Error {
  override readonly name = 'OnAirError';
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message?: string, details?: unknown) {
    super(message ?? errorCatalogue[code].message);
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return errorCatalogue[this.code].status;
  }

  get fault(): 'user' | 'service' {
    return errorCatalogue[this.code].fault;
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}
