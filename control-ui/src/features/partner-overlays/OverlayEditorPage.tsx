import { ArrowLeft, Copy, ExternalLink } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { channelAllows, triggerAccessLabels, triggerAccessModes, widgetKindLabels, widgetKinds, type Overlay, type OverlayContent } from '@onair/protocol';
import { addWidget, deleteOverlay, openOverlay, renameOverlay, rotateOverlaySecret, saveOverlay, setTriggerAccess } from '../../actions/partner-overlays.ts';
import { showToast } from '../../actions/toasts.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useOverlaysStore } from '../../stores/index.ts';
import partner from '../partner-home/Partner.module.css';
import { OverlayCanvas } from './OverlayCanvas.tsx';
import { useChannelRole } from './OverlaysPage.tsx';
import { WidgetInspector } from './WidgetInspector.tsx';
import styles from './Overlays.module.css';
import { Input, TextArea } from '../../components/FormField.tsx';

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    showToast({ kind: 'success', title: `${what} copied` });
  } catch {
    showToast({ kind: 'error', title: 'Copying is not allowed here', description: 'Select the address and copy it yourself.' });
  }
}

function Addresses({ overlay, editable, channelId }: { overlay: Overlay; editable: boolean; channelId: string }) {
  return (
    <section className={partner.card} aria-label="Overlay addresses">
      <h2 className={partner.cardTitle}>Use this overlay</h2>
      <label className={partner.field}>
        <span className={partner.label}>OnAir Studio: add a Browser Source with this address</span>
        <span className={styles.address}>
          <Input readOnly value={overlay.studioUrl} aria-label="Studio address" onFocus={(e) => e.target.select()} />
          <Button onClick={() => void copy(overlay.studioUrl, 'Studio address')} aria-label="Copy studio address">
            <Copy size={16} aria-hidden />
          </Button>
        </span>
      </label>
      <label className={partner.field}>
        <span className={partner.label}>OBS and other tools: a browser source of 1280×720 with this address</span>
        <span className={styles.address}>
          <Input readOnly value={overlay.url} aria-label="Overlay address" onFocus={(e) => e.target.select()} />
          <Button onClick={() => void copy(overlay.url, 'Overlay address')} aria-label="Copy overlay address">
            <Copy size={16} aria-hidden />
          </Button>
          <a className={partner.muted} href={overlay.url} target="_blank" rel="noreferrer" aria-label="Open the overlay in a new tab">
            <ExternalLink size={16} aria-hidden />
          </a>
        </span>
      </label>
      <p className={partner.hint}>Keep these addresses private: anyone who has one sees your overlay.</p>
      {editable && (
        <Button
          onClick={() => {
            if (window.confirm('Make a new address? The current one stops working at once, in OBS and in your studio scenes.'))
              void rotateOverlaySecret(channelId);
          }}
        >
          New address
        </Button>
      )}
    </section>
  );
}

function TriggerAccessCard({ draft, editable }: { draft: OverlayContent; editable: boolean }) {
  const access = draft.triggerAccess;
  return (
    <fieldset className={partner.card} disabled={!editable} aria-label="Trigger access">
      <h2 className={partner.cardTitle}>Trigger access</h2>
      <p className={partner.hint}>Who among your viewers can put something on this overlay (their chat in the chat box).</p>
      <div className={partner.checks} role="radiogroup" aria-label="Who can trigger">
        {triggerAccessModes.map((mode) => (
          <label key={mode} className={partner.check}>
            <input type="radio" name="trigger-access" checked={access.mode === mode} onChange={() => setTriggerAccess({ ...access, mode })} />
            {triggerAccessLabels[mode]}
          </label>
        ))}
      </div>
      <label className={partner.field}>
        <span className={partner.label}>Always allowed (one username a line)</span>
        <TextArea
          value={access.whitelist.join('\n')}
          onChange={(e) =>
            setTriggerAccess({
              ...access,
              whitelist: e.target.value
                .split('\n')
                .map((l) => l.trim())
                .filter((l, i, all) => l !== '' || i === all.length - 1),
            })
          }
        />
      </label>
    </fieldset>
  );
}

/** The overlay editor (partner spec §2 'Overlay'): widgets on the canvas, their settings, the addresses. */
export function OverlayEditorPage() {
  const { overlayId = '' } = useParams();
  const navigate = useNavigate();
  const { channelId, role } = useChannelRole();
  const status = useOverlaysStore((s) => s.editorStatus);
  const saved = useOverlaysStore((s) => s.saved);
  const draft = useOverlaysStore((s) => s.draft);
  const selectedId = useOverlaysStore((s) => s.selectedWidgetId);
  const saving = useOverlaysStore((s) => s.saving);
  const error = useOverlaysStore((s) => s.error);
  const fieldErrors = useOverlaysStore((s) => s.fieldErrors);
  // Partner spec §2 route titles: an overlay is a scene of widgets; its editor is Edit Scene.
  useDocumentTitle(saved ? `Edit Scene · ${saved.name}` : 'Edit Scene');
  const editable = role ? channelAllows(role, 'edit overlays') : false;
  useEffect(() => {
    if (channelId) void openOverlay(channelId, overlayId);
  }, [channelId, overlayId]);

  if (status === 'failed') {
    return (
      <EmptyState title="This overlay cannot be opened">
        {error} <Link to="/partner/overlays">Back to overlays</Link>
      </EmptyState>
    );
  }
  if (!saved || !draft || !channelId) return null;
  const dirty = JSON.stringify({ name: saved.name, widgets: saved.widgets, triggerAccess: saved.triggerAccess }) !== JSON.stringify(draft);
  const selectedIndex = draft.widgets.findIndex((w) => w.id === selectedId);
  const selected = selectedIndex >= 0 ? draft.widgets[selectedIndex] : undefined;
  const prefix = `widgets.${selectedIndex}.`;
  const selectedErrors = Object.fromEntries(Object.entries(fieldErrors).flatMap(([k, v]) => (k.startsWith(prefix) ? [[k.slice(prefix.length), v]] : [])));
  const invalid = new Set(
    Object.keys(fieldErrors).flatMap((k) => (/^widgets\.(\d+)\./.exec(k) ? [draft.widgets[Number(/^widgets\.(\d+)\./.exec(k)![1])]?.id ?? ''] : [])),
  );

  return (
    <div>
      <div className={styles.header}>
        <Link to="/partner/overlays" aria-label="Back to overlays" className={partner.muted}>
          <ArrowLeft size={20} aria-hidden />
        </Link>
        <Input
          className={`${partner.input} ${styles.name}`}
          aria-label="Overlay name"
          maxLength={64}
          value={draft.name}
          disabled={!editable}
          onChange={(e) => renameOverlay(e.target.value)}
        />
        <span className={styles.spacer} />
        {error && (
          <span role="alert" className={partner.formError}>
            {error}
          </span>
        )}
        {editable && (
          <>
            <Button
              variant="ghost"
              onClick={() => {
                if (window.confirm(`Delete “${saved.name}”? Its address stops working.`))
                  void deleteOverlay(channelId, saved.id).then((ok) => ok && navigate('/partner/overlays'));
              }}
            >
              Delete
            </Button>
            <Button variant="primary" disabled={!dirty || saving} onClick={() => void saveOverlay(channelId)}>
              {saving ? 'Saving…' : dirty ? 'Save' : 'Saved'}
            </Button>
          </>
        )}
      </div>
      <div className={styles.editor}>
        <div className={styles.palette} aria-label="Add a widget">
          <span className={styles.paletteTitle}>Add widget</span>
          {widgetKinds.map((kind) => (
            <Button key={kind} className={styles.paletteButton} disabled={!editable || draft.widgets.length >= 30} onClick={() => addWidget(kind)}>
              {widgetKindLabels[kind]}
            </Button>
          ))}
        </div>
        <div className={styles.stage}>
          <OverlayCanvas widgets={draft.widgets} selectedId={selectedId} invalidIds={invalid} editable={editable} />
          <p className={styles.canvasHint}>
            {draft.widgets.length === 0 ? 'Add a widget from the left. ' : ''}Drag a widget to move it, its corner to resize it. The checkerboard is transparent
            in the stream. Sizes are on the studio’s 1280×720 canvas.
          </p>
          <Addresses overlay={saved} editable={editable} channelId={channelId} />
        </div>
        <div className={styles.inspector}>
          {selected ? (
            <WidgetInspector widget={selected} errors={selectedErrors} editable={editable} channelId={channelId} />
          ) : (
            <section className={partner.card}>
              <h2 className={partner.cardTitle}>Widget settings</h2>
              <p className={partner.muted}>Select a widget on the canvas to change it.</p>
            </section>
          )}
          <TriggerAccessCard draft={draft} editable={editable} />
        </div>
      </div>
    </div>
  );
}
