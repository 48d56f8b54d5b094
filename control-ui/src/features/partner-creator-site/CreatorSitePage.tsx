import { ArrowDown, ArrowUp, ExternalLink, Globe } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  channelAllows,
  SITE_IMAGE_ACCEPT,
  SITE_IMAGE_TYPES,
  siteBlockKinds,
  siteBlockLabels,
  socialPlatforms,
  weekdayLabels,
  weekdays,
  type CreatorSite,
  type SiteBlock,
} from '@onair/protocol';
import {
  addSiteBlock,
  loadCreatorSite,
  moveSiteBlock,
  removeSiteBlock,
  saveCreatorSite,
  setSiteHeadline,
  setSitePublished,
  updateSiteBlock,
  uploadSiteImage,
} from '../../actions/partner-creator-site.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Select } from '../../components/Select.tsx';
import { Switch } from '../../components/Switch.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useCreatorSiteStore } from '../../stores/index.ts';
import partner from '../partner-home/Partner.module.css';
import { useChannelRole } from '../partner-overlays/OverlaysPage.tsx';
import styles from './CreatorSite.module.css';
import { Input, TextArea } from '../../components/FormField.tsx';

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 ** 2) * 10) / 10} MB`;

/** The picture of an image block: uploaded through the uploads store, with the §5 rules shown. */
function ImageFields({
  block,
  channelId,
  saved,
  errors,
}: {
  block: Extract<SiteBlock, { kind: 'image' }>;
  channelId: string;
  saved: CreatorSite;
  errors: Record<string, string>;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const image = block.uploadId ? saved.images[block.uploadId] : undefined;
  // Visitors (and this preview) see a picture once the published site shows it.
  const visible = image?.url && saved.published && saved.blocks.some((b) => b.kind === 'image' && b.uploadId === block.uploadId);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setRefusal(await uploadSiteImage(channelId, block.id, file));
    setBusy(false);
    if (input.current) input.current.value = '';
  };
  return (
    <div className={styles.image}>
      {/* The path on this origin: the control UI's CSP allows its own images (the api's PUBLIC_URL may be another origin). */}
      {visible ? <img className={styles.preview} src={new URL(image.url!).pathname} alt={block.alt} /> : null}
      <p className={partner.hint}>
        {image
          ? `${image.name} · ${image.width}×${image.height}${visible ? '' : ' · shown to visitors once the site is saved and published'}`
          : 'No picture yet.'}
      </p>
      <div className={styles.upload}>
        <input ref={input} type="file" hidden accept={SITE_IMAGE_ACCEPT} aria-label="Picture file" onChange={(e) => void pick(e.target.files?.[0])} />
        <Button disabled={busy} onClick={() => input.current?.click()}>
          {busy ? 'Uploading…' : image ? 'Replace picture' : 'Upload a picture'}
        </Button>
        <span className={partner.hint}>
          {SITE_IMAGE_TYPES}, up to {megabytes(saved.maxImageBytes)}.
        </span>
      </div>
      {(refusal ?? errors.uploadId) && (
        <span role="alert" className={partner.fieldError}>
          {refusal ?? errors.uploadId}
        </span>
      )}
    </div>
  );
}

function BlockFields({ block, errors, channelId, saved }: { block: SiteBlock; errors: Record<string, string>; channelId: string; saved: CreatorSite }) {
  const set = (b: SiteBlock) => updateSiteBlock(block.id, b);
  const titleField = (
    <label className={partner.field}>
      <span className={partner.label}>Heading</span>
      <Input maxLength={64} value={block.title} onChange={(e) => set({ ...block, title: e.target.value })} />
    </label>
  );
  switch (block.kind) {
    case 'about':
      return (
        <>
          {titleField}
          <label className={partner.field}>
            <span className={partner.label}>Text</span>
            <TextArea
              className={`${partner.input} ${partner.textarea} ${styles.text}`}
              maxLength={2000}
              value={block.text}
              aria-invalid={Boolean(errors.text)}
              onChange={(e) => set({ ...block, text: e.target.value })}
            />
            {errors.text && <span className={partner.fieldError}>{errors.text}</span>}
          </label>
        </>
      );
    case 'schedule':
      return (
        <>
          {titleField}
          <label className={partner.field}>
            <span className={partner.label}>Time zone</span>
            <Input value={block.timeZone} aria-invalid={Boolean(errors.timeZone)} onChange={(e) => set({ ...block, timeZone: e.target.value })} />
            {errors.timeZone && <span className={partner.fieldError}>{errors.timeZone}</span>}
          </label>
          {block.entries.map((entry, i) => (
            <div key={i} className={styles.entry}>
              <Select
                value={entry.day}
                aria-label="Day"
                options={weekdays.map((d) => ({ value: d, label: weekdayLabels[d] }))}
                onValueChange={(day) =>
                  set({ ...block, entries: block.entries.map((x, j) => (j === i ? { ...x, day: day as (typeof weekdays)[number] } : x)) })
                }
              />
              <Input
                type="time"
                aria-label="Time"
                value={entry.time}
                onChange={(e) => set({ ...block, entries: block.entries.map((x, j) => (j === i ? { ...x, time: e.target.value } : x)) })}
              />
              <Input
                aria-label="What"
                maxLength={64}
                value={entry.what}
                onChange={(e) => set({ ...block, entries: block.entries.map((x, j) => (j === i ? { ...x, what: e.target.value } : x)) })}
              />
              <Button variant="ghost" onClick={() => set({ ...block, entries: block.entries.filter((_x, j) => j !== i) })}>
                Remove
              </Button>
            </div>
          ))}
          <Button onClick={() => set({ ...block, entries: [...block.entries, { day: 'mon', time: '19:00', what: 'Stream' }] })}>Add a time</Button>
        </>
      );
    case 'socialLinks':
      return (
        <>
          {titleField}
          {block.links.map((link, i) => (
            <div key={i} className={styles.link}>
              <Select
                value={link.platform}
                aria-label="Platform"
                options={socialPlatforms.map((p) => ({ value: p, label: p }))}
                onValueChange={(p) =>
                  set({ ...block, links: block.links.map((x, j) => (j === i ? { ...x, platform: p as (typeof socialPlatforms)[number] } : x)) })
                }
              />
              <Input
                type="url"
                aria-label="Address"
                placeholder="https://"
                value={link.url}
                aria-invalid={Boolean(errors[`links.${i}.url`])}
                onChange={(e) => set({ ...block, links: block.links.map((x, j) => (j === i ? { ...x, url: e.target.value } : x)) })}
              />
              {errors[`links.${i}.url`] && <span className={`${partner.fieldError} ${styles.rowError}`}>{errors[`links.${i}.url`]}</span>}
              <Button variant="ghost" onClick={() => set({ ...block, links: block.links.filter((_x, j) => j !== i) })}>
                Remove
              </Button>
            </div>
          ))}
          <Button onClick={() => set({ ...block, links: [...block.links, { platform: 'Twitch', url: 'https://' }] })}>Add a link</Button>
        </>
      );
    case 'liveStatus':
      return (
        <>
          {titleField}
          <label className={partner.field}>
            <span className={partner.label}>Twitch channel shown while you are live (empty: status only)</span>
            <Input
              maxLength={25}
              value={block.twitchChannel}
              aria-invalid={Boolean(errors.twitchChannel)}
              onChange={(e) => set({ ...block, twitchChannel: e.target.value })}
            />
            {errors.twitchChannel && <span className={partner.fieldError}>{errors.twitchChannel}</span>}
          </label>
        </>
      );
    case 'image':
      return (
        <>
          <ImageFields block={block} channelId={channelId} saved={saved} errors={errors} />
          <Select
            value={block.style}
            aria-label="Shown as"
            options={[
              { value: 'banner', label: 'Banner across the page' },
              { value: 'picture', label: 'Picture in a card' },
            ]}
            onValueChange={(style) => set({ ...block, style: style as 'banner' | 'picture' })}
          />
          <label className={partner.field}>
            <span className={partner.label}>{block.style === 'banner' ? 'Caption' : 'Heading'}</span>
            <Input maxLength={64} value={block.title} onChange={(e) => set({ ...block, title: e.target.value })} />
          </label>
          <label className={partner.field}>
            <span className={partner.label}>Description for visitors who cannot see it</span>
            <Input maxLength={200} value={block.alt} onChange={(e) => set({ ...block, alt: e.target.value })} />
          </label>
        </>
      );
    case 'tipButton':
      return (
        <>
          {titleField}
          <label className={partner.field}>
            <span className={partner.label}>Button text</span>
            <Input maxLength={64} value={block.label} aria-invalid={Boolean(errors.label)} onChange={(e) => set({ ...block, label: e.target.value })} />
            {errors.label && <span className={partner.fieldError}>{errors.label}</span>}
          </label>
          {saved.tips.available ? (
            <p className={partner.hint}>
              Opens your tip page:{' '}
              <a href={saved.tips.url} target="_blank" rel="noreferrer">
                {saved.tips.url}
              </a>
            </p>
          ) : (
            <p className={styles.notice} role="note">
              Visitors do not see this button right now: {saved.tips.unavailableReason} It shows once you take tips in{' '}
              <Link to="/partner/settings/tips">Settings › Tips</Link>.
            </p>
          )}
        </>
      );
    case 'promoCodes':
      return (
        <>
          {titleField}
          {saved.promoCodes.length === 0 ? (
            <p className={styles.notice} role="note">
              No promo codes yet. Visitors see &ldquo;No promo codes right now.&rdquo; Codes you make for the campaigns you take part in show here: see{' '}
              <Link to="/partner/campaigns">Campaigns</Link>.
            </p>
          ) : (
            <ul className={styles.codes} aria-label="Promo codes shown">
              {saved.promoCodes.map((p) => (
                <li key={p.code}>
                  <code>{p.code}</code>
                  <span>
                    <strong>{p.game}</strong> · {p.discountPercent}% off · {p.campaignName}
                  </span>
                  {p.storeUrl ? <span className={partner.hint}>with your store link</span> : <span className={partner.hint}>no store link</span>}
                </li>
              ))}
            </ul>
          )}
        </>
      );
  }
}

/** Partner spec §2 'Creator Site': the public page's blocks, arranged by the creator or a collaborator with the Creator Site group. */
export function CreatorSitePage() {
  useDocumentTitle('Creator Site');
  const { channelId, channel, role } = useChannelRole();
  const status = useCreatorSiteStore((s) => s.status);
  const saved = useCreatorSiteStore((s) => s.saved);
  const draft = useCreatorSiteStore((s) => s.draft);
  const saving = useCreatorSiteStore((s) => s.saving);
  const error = useCreatorSiteStore((s) => s.error);
  const fieldErrors = useCreatorSiteStore((s) => s.fieldErrors);
  const canEdit = role ? channelAllows(role, 'edit creator site') : false;
  useEffect(() => {
    if (channelId && canEdit) void loadCreatorSite(channelId);
  }, [channelId, canEdit]);

  if (!channel) return null;
  if (!canEdit) {
    return (
      <EmptyState icon={<Globe size={32} />} title="The creator site is not shared with you">
        Your access to {channel.name} does not include Creator Site. Ask the channel owner to grant it.
      </EmptyState>
    );
  }
  if (status === 'failed') return <EmptyState title="The creator site cannot be opened">{error}</EmptyState>;
  if (!saved || !draft) return null;
  const dirty = JSON.stringify({ published: saved.published, headline: saved.headline, blocks: saved.blocks }) !== JSON.stringify(draft);
  const errorsOf = (i: number) =>
    Object.fromEntries(Object.entries(fieldErrors).flatMap(([k, v]) => (k.startsWith(`blocks.${i}.`) ? [[k.slice(`blocks.${i}.`.length), v]] : [])));

  return (
    <div className={partner.narrow}>
      <h1 className={partner.title}>Creator Site</h1>
      <p className={partner.lead}>
        {saved.url ? (
          <>
            Your public page:{' '}
            <a href={saved.url} target="_blank" rel="noreferrer">
              {saved.url} <ExternalLink size={14} aria-hidden />
            </a>
          </>
        ) : (
          <>
            Choose a username in <Link to="/partner/settings">Settings</Link> to get a public address.
          </>
        )}
      </p>
      <section className={partner.card} aria-label="Site">
        <Switch
          label={draft.published ? 'Published: visitors see the page' : 'Not published: visitors find nothing'}
          checked={draft.published}
          onCheckedChange={setSitePublished}
        />
        <label className={partner.field}>
          <span className={partner.label}>Headline under your name</span>
          <Input maxLength={64} value={draft.headline} onChange={(e) => setSiteHeadline(e.target.value)} />
        </label>
      </section>
      {draft.blocks.length === 0 && (
        <EmptyState icon={<Globe size={32} />} title="No blocks yet">
          Add an about text, your schedule, your links, your live status, pictures, a tip button and your promo codes below.
        </EmptyState>
      )}
      {draft.blocks.map((block, i) => (
        <section key={block.id} className={partner.card} aria-label={`${siteBlockLabels[block.kind]} block`}>
          <div className={styles.blockHeader}>
            <h2 className={partner.cardTitle}>{siteBlockLabels[block.kind]}</h2>
            <span>
              <Button variant="ghost" aria-label="Move up" disabled={i === 0} onClick={() => moveSiteBlock(block.id, -1)}>
                <ArrowUp size={16} aria-hidden />
              </Button>
              <Button variant="ghost" aria-label="Move down" disabled={i === draft.blocks.length - 1} onClick={() => moveSiteBlock(block.id, 1)}>
                <ArrowDown size={16} aria-hidden />
              </Button>
              <Button variant="ghost" onClick={() => removeSiteBlock(block.id)}>
                Remove
              </Button>
            </span>
          </div>
          <BlockFields block={block} errors={errorsOf(i)} channelId={channelId!} saved={saved} />
        </section>
      ))}
      <div className={styles.addBlocks} aria-label="Add a block">
        {siteBlockKinds.map((kind) => (
          <Button key={kind} onClick={() => addSiteBlock(kind)}>
            Add {siteBlockLabels[kind].toLowerCase()}
          </Button>
        ))}
      </div>
      <div className={partner.actions}>
        {error && (
          <span role="alert" className={partner.formError}>
            {error}
          </span>
        )}
        <Button variant="primary" disabled={!dirty || saving} onClick={() => void saveCreatorSite(channelId!)}>
          {saving ? 'Saving…' : dirty ? 'Save site' : 'Saved'}
        </Button>
      </div>
    </div>
  );
}
