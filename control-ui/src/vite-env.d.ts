/// <reference types="vite/client" />

/** Settings an operator gives the UI at build time (see DESIGN.md); every one is optional. */
interface ImportMetaEnv {
  readonly VITE_HELP_CENTRE_URL?: string;
  readonly VITE_TUTORIALS_URL?: string;
  readonly VITE_COMMUNITY_URL?: string;
  /** Where the error page's 'Contact support' leads (https: or mailto:). */
  readonly VITE_SUPPORT_URL?: string;
}

/** The build (commit) and release (version) of this UI, set at build time (vite.config.ts). */
declare const __ONAIR_BUILD__: string;
declare const __ONAIR_RELEASE__: string;

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
