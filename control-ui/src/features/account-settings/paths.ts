/** The two Account Settings pages (spec §2), each a route of its own. */
export type AccountSettingsPage = 'account' | 'plan';

export const ACCOUNT_SETTINGS_PATHS: Record<AccountSettingsPage, string> = { account: '/account', plan: '/account/plan' };
