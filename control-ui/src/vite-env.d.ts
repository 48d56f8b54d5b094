/// <reference types="vite/client" />

/** Settings an operator gives the UI at build time (see DESIGN.md); every one is optional. */
interface ImportMetaEnv {
  readonly VITE_HELP_CENTRE_URL?: string;
  readonly VITE_TUTORIALS_URL?: string;
  readonly VITE_COMMUNITY_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
