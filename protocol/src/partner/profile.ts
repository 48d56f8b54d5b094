import countries from 'i18n-iso-countries';
import { z } from 'zod';

// Spec §3 "Account" and the lists of §9, written once.

export const identities = ['He', 'She', 'They', 'Other', 'Prefer not to answer'] as const;
export const streamingDevices = ['PC', 'Mobile', 'Xbox', 'Nintendo Switch', 'Oculus', 'PlayStation', 'Nintendo'] as const;
export const mainPlatforms = ['Twitch', 'YouTube', 'X', 'TikTok', 'Instagram', 'Other'] as const;
export const discoverySources = ['Referral', 'Social Media', 'Gaming Event', 'Advertisement', 'Search', 'Other'] as const;
/** Spec §9: about 35 spoken languages plus American Sign Language (ISO 639-1 codes, 'ase' for ASL). */
export const contentLanguages = {
  ar: 'Arabic',
  bg: 'Bulgarian',
  zh: 'Chinese',
  cs: 'Czech',
  da: 'Danish',
  nl: 'Dutch',
  en: 'English',
  fi: 'Finnish',
  fr: 'French',
  de: 'German',
  el: 'Greek',
  he: 'Hebrew',
  hi: 'Hindi',
  hu: 'Hungarian',
  id: 'Indonesian',
  it: 'Italian',
  ja: 'Japanese',
  ko: 'Korean',
  ms: 'Malay',
  no: 'Norwegian',
  pl: 'Polish',
  pt: 'Portuguese',
  ro: 'Romanian',
  ru: 'Russian',
  sk: 'Slovak',
  es: 'Spanish',
  sv: 'Swedish',
  tl: 'Tagalog',
  th: 'Thai',
  tr: 'Turkish',
  uk: 'Ukrainian',
  vi: 'Vietnamese',
  ca: 'Catalan',
  hr: 'Croatian',
  sr: 'Serbian',
  ase: 'American Sign Language',
} as const satisfies Record<string, string>;
export type ContentLanguage = keyof typeof contentLanguages;
const contentLanguageCodes = Object.keys(contentLanguages) as [ContentLanguage, ...ContentLanguage[]];

/** ISO 3166-1 alpha-2 codes, from the maintained i18n-iso-countries list. */
export const countryCodes = Object.keys(countries.getAlpha2Codes()) as [string, ...string[]];

/** Spec §5: the username can be changed again only this many days after the last change. */
export const USERNAME_CHANGE_COOLDOWN_DAYS = 30;
/** Spec §9: text fields of 64 characters. */
export const PROFILE_TEXT_MAX = 64;

const required = 'This field is required';

export const usernameSchema = z
  .string()
  .trim()
  // An empty field is only "required", not also too short and of the wrong letters.
  .min(1, { message: required, abort: true })
  .min(3, 'Use at least 3 characters')
  .max(25, 'Keep the username under 26 characters')
  .regex(/^[A-Za-z0-9_]+$/, 'Use only Latin letters, digits and underscores');

const nameSchema = z
  .string()
  .trim()
  .min(1, required)
  .max(PROFILE_TEXT_MAX, `Keep the text under ${PROFILE_TEXT_MAX + 1} characters`);

/** YYYY-MM-DD of a real past day. */
export const birthdateSchema = z.iso
  .date('Enter a date such as 1995-04-23')
  .refine((d) => new Date(`${d}T00:00:00Z`).getTime() < Date.now(), 'The birthdate must be in the past');

export const personalInfoSchema = z.object({
  username: usernameSchema,
  firstName: nameSchema,
  lastName: nameSchema,
  identity: z.enum(identities, required),
  pronouns: z.string().trim().max(32, 'Keep the text under 33 characters').default(''),
  birthdate: birthdateSchema,
  country: z.enum(countryCodes, 'Choose a country from the list'),
  contentLanguage: z.enum(contentLanguageCodes, 'Choose a language from the list'),
  streamingDevices: z.array(z.enum(streamingDevices)).min(1, 'Choose at least one device').max(streamingDevices.length),
  mainPlatform: z.enum(mainPlatforms, required),
  discoverySource: z.enum(discoverySources, required),
});
export type PersonalInfo = z.infer<typeof personalInfoSchema>;

export const emailNotificationsSchema = z.object({ digest: z.boolean(), productUpdates: z.boolean(), partnerNews: z.boolean() });
export type EmailNotifications = z.infer<typeof emailNotificationsSchema>;

export const loginMethodSchema = z.object({
  /** 'email' or an OAuth provider id (twitch, google, facebook). */
  id: z.string(),
  label: z.string(),
  connected: z.boolean(),
  /** For a platform: the account's name there when known. */
  detail: z.string().nullable(),
  /** False when this is the last way to sign in (spec §5). */
  canDisconnect: z.boolean(),
});
export type LoginMethod = z.infer<typeof loginMethodSchema>;

export const partnerAccountSchema = z.object({
  email: z.string(),
  avatar: z.string().nullable(),
  /** Null until Get Started was completed. */
  profile: personalInfoSchema.nullable(),
  onboarded: z.boolean(),
  /** When the username may next be changed (ISO), or null when it may be now. */
  usernameChangeAvailableAt: z.string().nullable(),
  emailNotifications: emailNotificationsSchema,
  loginMethods: z.array(loginMethodSchema),
});
export type PartnerAccount = z.infer<typeof partnerAccountSchema>;

/** Spec §5 media upload: the avatar's supported types and largest size. */
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const AVATAR_MAX_BYTES = 512 * 1024;
export const uploadAvatarBodySchema = z.object({
  /** A data: URL of the image (base64). */
  dataUrl: z
    .string()
    .max(Math.ceil((AVATAR_MAX_BYTES * 4) / 3) + 64, 'The image is larger than 0.5 MB')
    .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+=*$/, 'Upload a PNG, JPEG or WebP image'),
});
