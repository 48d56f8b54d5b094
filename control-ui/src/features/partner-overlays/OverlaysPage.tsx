import { Layers } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { channelAllows } from '@onair/protocol';
import { createOverlay, loadOverlays } from '../../actions/partner-overlays.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useOverlaysStore, usePartnerStore } from '../../stores/index.ts';
import partner from '../partner-home/Partner.module.css';
import styles from './Overlays.module.css';
import { Input } from '../../components/FormField.tsx';

/** The selected channel's role, as the channel selector knows it. */
export function useChannelRole() {
  const channelId = usePartnerStore((s) => s.selectedChannelId);
  const channel = usePartnerStore((s) => s.channels.find((c) => c.id === s.selectedChannelId) ?? null);
  const role = channel ? (channel.owner ? ({ kind: 'owner' } as const) : ({ kind: 'collaborator', groups: channel.permissions } as const)) : null;
  return { channelId, channel, role };
}

/** Partner spec §2 'Overlay': the channel's overlays, and a new one. */
export function OverlaysPage() {
  // Partner spec §2 route titles: the list of overlays is Scenes (Overlay is the page OBS shows).
  useDocumentTitle('Scenes');
  const navigate = useNavigate();
  const { channelId, channel, role } = useChannelRole();
  const status = useOverlaysStore((s) => s.listStatus);
  const overlays = useOverlaysStore((s) => s.overlays);
  const error = useOverlaysStore((s) => s.listError);
  const [name, setName] = useState('');
  const canView = role ? channelAllows(role, 'view overlays') : false;
  const canEdit = role ? channelAllows(role, 'edit overlays') : false;
  useEffect(() => {
    if (channelId && canView) void loadOverlays(channelId);
  }, [channelId, canView]);

  if (!channel) return null;
  if (!canView) {
    return (
      <EmptyState icon={<Layers size={32} />} title="Overlays are not shared with you">
        Your access to {channel.name} does not include Overlay. Ask the channel owner to grant it.
      </EmptyState>
    );
  }
  const create = async (e: FormEvent) => {
    e.preventDefault();
    if (!channelId || name.trim() === '') return;
    const id = await createOverlay(channelId, name.trim());
    if (id) void navigate(`/partner/overlays/${id}`);
  };
  return (
    <div>
      <h1 className={partner.title}>Overlays</h1>
      <p className={partner.lead}>Alerts, goals, chat and more on a transparent page: add it to OnAir Studio or OBS as a browser source.</p>
      {canEdit && (
        <form className={styles.createRow} onSubmit={(e) => void create(e)}>
          <Input aria-label="New overlay name" placeholder="New overlay name" maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
          <Button type="submit" variant="primary" disabled={name.trim() === ''}>
            Create overlay
          </Button>
        </form>
      )}
      {error && (
        <p role="alert" className={partner.formError}>
          {error}
        </p>
      )}
      {status === 'ready' && overlays.length === 0 ? (
        <EmptyState icon={<Layers size={32} />} title="No overlays yet">
          {canEdit ? 'Name your first overlay above, then add widgets to it.' : 'The channel owner has not made any overlays yet.'}
        </EmptyState>
      ) : (
        <div className={styles.overlayList}>
          {overlays.map((o) => (
            <Link key={o.id} to={`/partner/overlays/${o.id}`} className={styles.overlayCard}>
              <strong>{o.name}</strong>
              <span className={partner.muted}>
                {o.widgetCount === 1 ? '1 widget' : `${o.widgetCount} widgets`} · edited{' '}
                {new Date(o.updatedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
              </span>
            </Link>
          ))}
        </div>
      )}
    </div>
  );
}
