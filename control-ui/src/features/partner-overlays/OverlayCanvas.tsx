import { useRef, type PointerEvent as ReactPointerEvent } from 'react';
import { alertValues, goalMetricLabels, OVERLAY_CANVAS, renderAlertText, widgetKindLabels, type Widget } from '@onair/protocol';
import { savedOverlayImageSrc, selectWidget, updateWidget } from '../../actions/partner-overlays.ts';
import { useOverlaysStore } from '../../stores/index.ts';
import styles from './Overlays.module.css';

const pct = (v: number, of: number) => `${(v / of) * 100}%`;

/** An uploaded picture, from the saved overlay's page; until saved, its name. */
function UploadedImage({ uploadId }: { uploadId: string }) {
  const saved = useOverlaysStore((s) => s.saved);
  const src = saved ? savedOverlayImageSrc(saved, uploadId) : null;
  if (src) return <img className={styles.imagePreview} src={src} alt="" draggable={false} />;
  return <div className={styles.preview}>{saved?.images[uploadId]?.name ?? 'Picture'} · shown once saved</div>;
}

/** What a widget looks like in the editor: its content with sample values, never live data. */
function Preview({ widget, scale }: { widget: Widget; scale: number }) {
  const font = 'fontSize' in widget ? { fontSize: widget.fontSize * scale, color: widget.color } : {};
  switch (widget.kind) {
    case 'alertBox':
      return (
        <div className={styles.preview} style={font}>
          <div className={styles.alertPreview}>
            {renderAlertText(widget.alerts.follow.message, alertValues({ type: 'follow', platformUsername: 'TestFollower', value: null, data: {} }))}
          </div>
        </div>
      );
    case 'recentEvents':
      return (
        <div className={styles.preview} style={font}>
          {widget.title && <strong>{widget.title}</strong>}
          <div>TestFollower followed</div>
          <div>TestSubscriber subscribed</div>
        </div>
      );
    case 'chatBox':
      return (
        <div className={styles.preview} style={font}>
          <div>
            <strong>viewer1</strong> Hello!
          </div>
          <div>
            <strong>viewer2</strong> GG
          </div>
        </div>
      );
    case 'goalBar':
      return (
        <div className={styles.preview} style={font}>
          <div>{widget.title || goalMetricLabels[widget.metric]} · 40%</div>
          <div className={styles.goalTrack}>
            <div className={styles.goalFill} style={{ background: widget.barColor }} />
          </div>
        </div>
      );
    case 'text':
      return (
        <div className={styles.preview} style={font}>
          {widget.text}
        </div>
      );
    case 'image':
      return widget.uploadId ? (
        <UploadedImage uploadId={widget.uploadId} />
      ) : (
        <img className={styles.imagePreview} src={widget.url} alt="" referrerPolicy="no-referrer" draggable={false} />
      );
    case 'timer':
      return (
        <div className={styles.preview} style={{ ...font, textAlign: 'center' }}>
          {widget.label && <div>{widget.label}</div>}
          <strong>{widget.mode === 'countdown' ? '10:00' : '00:00'}</strong>
        </div>
      );
    case 'sponsor':
      return (
        <div className={styles.preview} style={font}>
          {widget.label && <div>{widget.label}</div>}
          <strong>{widget.campaignId ? 'Your sponsor · your promo code' : 'Choose a campaign'}</strong>
        </div>
      );
  }
}

/**
 * The overlay's 1280×720 canvas, drawn at the size of its column like the studio's program: each
 * widget is placed by percent, dragged to move and by its corner to resize, in canvas units.
 */
export function OverlayCanvas({
  widgets,
  selectedId,
  invalidIds,
  editable,
}: {
  widgets: Widget[];
  selectedId: string | null;
  invalidIds: ReadonlySet<string>;
  editable: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const scale = (ref.current?.clientWidth ?? OVERLAY_CANVAS.width) / OVERLAY_CANVAS.width;

  const drag = (e: ReactPointerEvent, widget: Widget, mode: 'move' | 'resize') => {
    e.stopPropagation();
    selectWidget(widget.id);
    if (!editable || !ref.current) return;
    const target = e.currentTarget as HTMLElement;
    target.setPointerCapture(e.pointerId);
    const perPixel = OVERLAY_CANVAS.width / ref.current.clientWidth;
    const start = { x: e.clientX, y: e.clientY, widget };
    const onMove = (m: PointerEvent) => {
      const dx = (m.clientX - start.x) * perPixel;
      const dy = (m.clientY - start.y) * perPixel;
      if (mode === 'move') updateWidget(widget.id, { x: start.widget.x + dx, y: start.widget.y + dy });
      else updateWidget(widget.id, { width: start.widget.width + dx, height: start.widget.height + dy });
    };
    const onUp = () => {
      target.removeEventListener('pointermove', onMove);
      target.removeEventListener('pointerup', onUp);
    };
    target.addEventListener('pointermove', onMove);
    target.addEventListener('pointerup', onUp);
  };

  return (
    <div ref={ref} className={styles.canvas} data-testid="overlay-editor-canvas" onPointerDown={() => selectWidget(null)}>
      {widgets.map((w) => (
        <div
          key={w.id}
          role="button"
          tabIndex={0}
          aria-label={`${widgetKindLabels[w.kind]} widget`}
          aria-pressed={w.id === selectedId}
          data-widget={w.kind}
          className={[styles.widget, w.id === selectedId ? styles.widgetSelected : '', invalidIds.has(w.id) ? styles.widgetInvalid : ''].join(' ')}
          style={{
            left: pct(w.x, OVERLAY_CANVAS.width),
            top: pct(w.y, OVERLAY_CANVAS.height),
            width: pct(w.width, OVERLAY_CANVAS.width),
            height: pct(w.height, OVERLAY_CANVAS.height),
          }}
          onPointerDown={(e) => drag(e, w, 'move')}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ' ') selectWidget(w.id);
          }}
        >
          <Preview widget={w} scale={scale} />
          <span className={styles.widgetKind}>{widgetKindLabels[w.kind]}</span>
          {editable && w.id === selectedId && <span className={styles.resize} aria-hidden onPointerDown={(e) => drag(e, w, 'resize')} />}
        </div>
      ))}
    </div>
  );
}
