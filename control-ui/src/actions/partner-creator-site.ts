import {
  errorBodySchema,
  getCreatorSiteEndpoint,
  newSiteBlock,
  updateCreatorSiteEndpoint,
  uploadSchema,
  uploadSiteImageEndpoint,
  type CreatorSite,
  type CreatorSiteContent,
  type SiteBlock,
  type SiteBlockKind,
} from '@onair/protocol';
import { call, urlOf } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { useCreatorSiteStore } from '../stores/index.ts';
import { apiErrorOf, messageOf } from './api-errors.ts';
import { overlayFieldErrors } from './partner-overlays.ts';
import { showToast } from './toasts.ts';
import { xhrSender, type UploadSender } from './uploads.ts';

const contentOf = (s: CreatorSite): CreatorSiteContent => ({ published: s.published, headline: s.headline, blocks: structuredClone(s.blocks) });

/** Edits not saved yet of the channel's site (a second load must not replace them). */
function unsavedEdits(channelId: string): boolean {
  const { saved, draft, channelId: of } = useCreatorSiteStore.getState();
  return of === channelId && saved !== null && draft !== null && JSON.stringify(contentOf(saved)) !== JSON.stringify(draft);
}

export async function loadCreatorSite(channelId: string, client: HttpClient = httpClient): Promise<void> {
  if (unsavedEdits(channelId)) return;
  useCreatorSiteStore.setState({ status: 'loading', error: null, fieldErrors: {} });
  try {
    const site = await call(getCreatorSiteEndpoint, { params: { channelId } }, client);
    if (unsavedEdits(channelId)) return;
    useCreatorSiteStore.setState({ status: 'ready', saved: site, draft: contentOf(site), channelId });
  } catch (err) {
    useCreatorSiteStore.setState({ status: 'failed', saved: null, draft: null, error: messageOf(err) });
  }
}

function edit(change: (d: CreatorSiteContent) => CreatorSiteContent): void {
  const { draft } = useCreatorSiteStore.getState();
  if (draft) useCreatorSiteStore.setState({ draft: change(draft) });
}

export function setSiteHeadline(headline: string): void {
  edit((d) => ({ ...d, headline }));
}

export function setSitePublished(published: boolean): void {
  edit((d) => ({ ...d, published }));
}

export function addSiteBlock(kind: SiteBlockKind): void {
  edit((d) => ({ ...d, blocks: [...d.blocks, newSiteBlock(kind, crypto.randomUUID())] }));
}

export function updateSiteBlock(id: string, block: SiteBlock): void {
  edit((d) => ({ ...d, blocks: d.blocks.map((b) => (b.id === id ? block : b)) }));
}

export function removeSiteBlock(id: string): void {
  edit((d) => ({ ...d, blocks: d.blocks.filter((b) => b.id !== id) }));
}

/** The creator arranges the blocks: one place up (-1) or down (+1). */
export function moveSiteBlock(id: string, by: -1 | 1): void {
  edit((d) => {
    const i = d.blocks.findIndex((b) => b.id === id);
    const j = i + by;
    if (i < 0 || j < 0 || j >= d.blocks.length) return d;
    const blocks = [...d.blocks];
    [blocks[i], blocks[j]] = [blocks[j]!, blocks[i]!];
    return { ...d, blocks };
  });
}

export async function saveCreatorSite(channelId: string, client: HttpClient = httpClient): Promise<boolean> {
  const { draft } = useCreatorSiteStore.getState();
  if (!draft) return false;
  useCreatorSiteStore.setState({ saving: true, error: null, fieldErrors: {} });
  try {
    const site = await call(updateCreatorSiteEndpoint, { params: { channelId }, body: draft }, client);
    useCreatorSiteStore.setState({ saving: false, saved: site, draft: contentOf(site) });
    showToast({ kind: 'success', title: site.published ? 'Site saved and published' : 'Site saved (not published)' });
    return true;
  } catch (err) {
    const api = apiErrorOf(err);
    useCreatorSiteStore.setState({
      saving: false,
      error: api?.code === 'VALIDATION_FAILED' ? 'Check the marked fields.' : messageOf(err),
      fieldErrors: api?.code === 'VALIDATION_FAILED' ? overlayFieldErrors(api.details) : {},
    });
    return false;
  }
}

/**
 * Uploads a picture for an image block through the uploads store; on success the block shows it
 * (saved with the site). Returns the server's words when it is refused (type, size, storage).
 */
export async function uploadSiteImage(channelId: string, blockId: string, file: File, send: UploadSender = xhrSender): Promise<string | null> {
  const url = urlOf(uploadSiteImageEndpoint, { params: { channelId }, query: { name: file.name.slice(0, 200) || 'picture' } });
  try {
    const answer = await send(url, file, () => undefined);
    if (answer.status !== 201) {
      const error = errorBodySchema.safeParse(answer.body);
      return error.success ? error.data.error.message : 'The upload did not work. Try again.';
    }
    const upload = uploadSchema.parse(answer.body);
    const { saved, draft } = useCreatorSiteStore.getState();
    if (!saved || !draft) return null;
    const siteUrl = saved.url;
    useCreatorSiteStore.setState({
      saved: {
        ...saved,
        images: {
          ...saved.images,
          [upload.id]: { name: upload.name, width: upload.width, height: upload.height, url: siteUrl ? `${siteUrl}/images/${upload.id}` : null },
        },
      },
      draft: { ...draft, blocks: draft.blocks.map((b) => (b.id === blockId && b.kind === 'image' ? { ...b, uploadId: upload.id } : b)) },
    });
    return null;
  } catch (err) {
    return messageOf(err);
  }
}
