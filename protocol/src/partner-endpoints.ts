// The partner network's endpoints with those of its areas. Kept apart from partner/: the areas read
// partner/'s channel schemas, so partner/ itself imports none of them.
import type { Endpoint } from './http/endpoint.ts';
import { chatbotEndpoints } from './chatbot/http.ts';
import { creatorSiteEndpoints } from './creator-site/creator-site.ts';
import { moneyEndpoints } from './money/http.ts';
import { overlayEndpoints } from './overlays/overlays.ts';
import { partnerNetworkEndpoints } from './partner/http.ts';

/** Every partner endpoint; the api mounts exactly these, and the access test walks them. */
export const partnerEndpoints: readonly Endpoint[] = [
  ...partnerNetworkEndpoints,
  ...chatbotEndpoints,
  ...overlayEndpoints,
  ...creatorSiteEndpoints,
  ...moneyEndpoints,
];
