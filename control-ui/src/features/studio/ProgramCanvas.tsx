import { MonitorPlay } from 'lucide-react';
import { useCallback, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import {
  canvasSize,
  COUNTDOWN_PLATE,
  layerCornerRadius,
  layerFit,
  playsOutputAudio,
  sourceKindInfo,
  verticalLayout,
  type Crop,
  type Layer,
  type Source,
} from '@onair/protocol';
import { moveLayerByHand, removeLayer, restackLayer } from '../../actions/scene-edits.ts';
import { selectLayer } from '../../actions/studio.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ProgramPreview } from '../media/ProgramPreview.tsx';
import {
  boxForKey,
  minimumSize,
  RESIZE_HANDLES,
  resizeFrom,
  snapMove,
  snapResize,
  type Box,
  type ResizeHandle,
  type SnapGuides,
} from '../../model/layer-geometry.ts';
import { useAppStore, useMediaStore, useStudioStore } from '../../stores/index.ts';
import { useCountdownLeft } from './CountdownLeft.tsx';
import { LayerContent } from '../media/LayerContent.tsx';
import styles from './ProgramCanvas.module.css';

interface Drag {
  layerId: string;
  mode: 'move' | ResizeHandle;
  startX: number;
  startY: number;
  /** Canvas pixels per screen pixel at the start of the drag. */
  scale: number;
  start: Box;
  box: Box;
  guides: SnapGuides;
}

const pct = (value: number, of: number) => `${(value / of) * 100}%`;
type Size = { width: number; height: number };
const boxOf = (l: Layer): Box => ({ x: l.x, y: l.y, width: l.width, height: l.height });
const sameBox = (a: Box, b: Box) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

/**
 * The program: what goes on air, edited in place. Layers are selected with a click, moved by
 * dragging, resized from their corners and snapped to the canvas's edges and centre; the
 * keyboard moves (arrows, Shift for 10 px), resizes (Alt+arrows), restacks ([ and ]) and removes
 * (Delete) the selected layer. A drag is local until the pointer is released, then sent as one edit.
 * Once the worker's program preview plays, it is the picture: the layers become outlines and
 * handles over it, so the host edits on exactly what goes out; until then (or while it stalls)
 * the canvas draws each layer's own content. The canvas switch (CanvasSwitch) turns the same editor
 * to the vertical canvas: the layers' vertical boxes, moved with the same snapping and sent as
 * vertical edits; the worker's preview is the horizontal program, so the vertical canvas draws
 * each layer's own content.
 */
export function ProgramCanvas() {
  const canvas = useAppStore((state) => state.canvas);
  const document = useStudioStore((s) => s.document);
  const status = useStudioStore((s) => s.status);
  const selectedLayerId = useStudioStore((s) => s.selectedLayerId);
  const editCanvas = useStudioStore((s) => s.editCanvas);
  const isVertical = editCanvas === 'vertical';
  // The scene's coordinates: 1280×720 horizontally, 720×1280 vertically (whatever the output resolution).
  const size: Size = canvasSize(editCanvas);
  const [drag, setDrag] = useState<Drag | null>(null);
  const preview = useMediaStore((s) => (s.connection === 'connected' ? s.preview : null));
  const playsAudio = useMediaStore((s) => playsOutputAudio(s.role));
  const [previewPlaying, setPreviewPlaying] = useState(false);
  const onPreviewLive = useCallback((live: boolean) => setPreviewPlaying(live), []);
  const live = !isVertical && previewPlaying && preview !== null && document !== null;
  const surface = useRef<HTMLDivElement>(null);
  const ratio = { '--canvas-ratio': isVertical ? size.width / size.height : canvas.width / canvas.height } as CSSProperties;

  const scene = document?.scenes.find((s) => s.id === document.activeSceneId);
  const countdownLeft = useCountdownLeft(scene?.kind === 'countdown' ? scene.id : undefined);
  const sources = new Map((document?.sources ?? []).map((s) => [s.id, s]));
  const verticalBoxes = scene && document && isVertical ? verticalLayout(scene, document.sources) : undefined;
  const boxOfLayer = (l: Layer): Box => boxOf(verticalBoxes ? { ...l, ...verticalBoxes.get(l.id) } : l);
  // A page's minimum size is its render size on the horizontal canvas; the vertical one only scales its frames.
  const minimumOf = (kind: Source['kind'] | undefined) => minimumSize(isVertical ? undefined : kind);
  const commit = (sceneId: string, layerId: string, box: Box) => moveLayerByHand(editCanvas, sceneId, layerId, box);
  const layers = scene
    ? [...scene.layers].sort((a, b) => a.zIndex - b.zIndex).filter((l) => sourceKindInfo[sources.get(l.sourceId)?.kind ?? 'microphone'].hasVideo)
    : [];

  const beginDrag = (event: ReactPointerEvent, layer: Layer, mode: Drag['mode']) => {
    if (event.button !== 0 || !surface.current) return;
    event.preventDefault();
    event.stopPropagation();
    selectLayer(layer.id);
    surface.current.focus();
    const rect = surface.current.getBoundingClientRect();
    const start = boxOfLayer(layer);
    const kind = sources.get(layer.sourceId)?.kind;
    const state: Drag = {
      layerId: layer.id,
      mode,
      startX: event.clientX,
      startY: event.clientY,
      scale: size.width / rect.width,
      start,
      box: start,
      guides: { vertical: [], horizontal: [] },
    };
    setDrag(state);
    let current = state;
    const move = (e: PointerEvent) => {
      const dx = (e.clientX - state.startX) * state.scale;
      const dy = (e.clientY - state.startY) * state.scale;
      const min = minimumOf(kind);
      // Alt turns snapping off for fine placement.
      const snapped =
        mode === 'move'
          ? e.altKey
            ? { box: { ...start, x: Math.round(start.x + dx), y: Math.round(start.y + dy) }, guides: { vertical: [], horizontal: [] } }
            : snapMove({ ...start, x: start.x + dx, y: start.y + dy }, size)
          : e.altKey
            ? { box: resizeFrom(start, mode, dx, dy, min), guides: { vertical: [], horizontal: [] } }
            : snapResize(resizeFrom(start, mode, dx, dy, min), mode, size, min);
      current = { ...state, box: snapped.box, guides: snapped.guides };
      setDrag(current);
    };
    const end = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      setDrag(null);
      if (scene && !sameBox(current.box, start)) commit(scene.id, layer.id, current.box);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (!scene || !selectedLayerId) return;
    const layer = scene.layers.find((l) => l.id === selectedLayerId);
    if (!layer) return;
    if (event.key === 'Escape') {
      selectLayer(null);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      removeLayer(scene.id, layer.id);
    } else if (event.key === ']' || event.key === '[') {
      restackLayer(scene.id, layer.id, event.key === ']' ? 1 : -1);
    } else {
      const next = boxForKey(boxOfLayer(layer), event.key, { shift: event.shiftKey, alt: event.altKey }, minimumOf(sources.get(layer.sourceId)?.kind));
      if (!next) return;
      commit(scene.id, layer.id, next);
    }
    event.preventDefault();
  };

  return (
    <section className={styles.stage} aria-label="Program">
      <div
        ref={surface}
        className={styles.canvas}
        style={ratio}
        data-testid="program-canvas"
        data-preview={live ? 'live' : 'local'}
        data-canvas={editCanvas}
        tabIndex={scene ? 0 : -1}
        role={scene ? 'application' : undefined}
        aria-label={
          scene
            ? `Scene ${scene.name}, ${isVertical ? 'vertical' : 'horizontal'} canvas: arrows move the selected source, Alt+arrows resize it, [ and ] restack it, Delete removes it`
            : undefined
        }
        onKeyDown={onKeyDown}
        onPointerDown={() => selectLayer(null)}
      >
        {/* Kept playing on the vertical canvas too (the program's sound), but not drawn there: it is the horizontal picture. */}
        {scene && (
          <div className={isVertical ? styles.previewAside : styles.previewShown}>
            <ProgramPreview stream={preview} onLive={onPreviewLive} muted={!playsAudio} />
          </div>
        )}
        {!scene && (
          <EmptyState icon={<MonitorPlay size={36} />} title={status === 'loading' ? 'Loading the scene…' : 'Program preview'}>
            <p>
              {status === 'unauthenticated'
                ? 'Sign in to open this project.'
                : status === 'error'
                  ? 'This project could not be opened.'
                  : `The program appears here when the studio has loaded the project. Canvas ${canvas.width} × ${canvas.height}.`}
            </p>
          </EmptyState>
        )}
        {layers.map((layer) => {
          const source = sources.get(layer.sourceId);
          if (!source) return null;
          const box = drag?.layerId === layer.id ? drag.box : boxOfLayer(layer);
          return (
            <LayerView
              key={layer.id}
              layer={layer}
              source={source}
              box={box}
              crop={verticalBoxes?.get(layer.id)?.crop ?? layer.crop}
              canvas={size}
              selected={layer.id === selectedLayerId}
              onBegin={(event, mode) => beginDrag(event, layer, mode)}
            />
          );
        })}
        {/* The worker draws the time left into the program; until its preview plays, the canvas draws it at the same place. */}
        {countdownLeft !== null && !live && !isVertical && (
          <div
            className={styles.countdownPlate}
            style={{
              left: pct(COUNTDOWN_PLATE.x, size.width),
              top: pct(COUNTDOWN_PLATE.y, size.height),
              width: pct(COUNTDOWN_PLATE.width, size.width),
              height: pct(COUNTDOWN_PLATE.height, size.height),
            }}
            data-testid="canvas-countdown"
            aria-label={`Countdown: ${countdownLeft} left`}
          >
            <span>{countdownLeft}</span>
          </div>
        )}
        {drag?.guides.vertical.map((x) => (
          <div key={`v${x}`} className={styles.guideVertical} style={{ left: pct(x, size.width) }} aria-hidden />
        ))}
        {drag?.guides.horizontal.map((y) => (
          <div key={`h${y}`} className={styles.guideHorizontal} style={{ top: pct(y, size.height) }} aria-hidden />
        ))}
      </div>
    </section>
  );
}

function cornerRadiusCss(radius: number, box: Box): string | undefined {
  if (radius <= 0 || box.width <= 0 || box.height <= 0) return undefined;
  return `${(radius / box.width) * 100}% / ${(radius / box.height) * 100}%`;
}

/**
 * How the layer's picture fills its box, as the worker draws it (its plan's `crop` and `fit`): the
 * canvas's crop in the picture's own pixels (object-view-box), then covered or stretched (layerFit).
 * Custom properties, read by the video and image of LayerContent.
 */
function pictureFitCss(kind: Source['kind'], crop: Crop): CSSProperties {
  const cut = crop.top || crop.right || crop.bottom || crop.left ? `inset(${crop.top}px ${crop.right}px ${crop.bottom}px ${crop.left}px)` : 'none';
  return { '--layer-fit': layerFit(kind) === 'cover' ? 'cover' : 'fill', '--layer-crop': cut } as CSSProperties;
}

function LayerView(props: {
  layer: Layer;
  source: Source;
  box: Box;
  crop: Crop;
  canvas: Size;
  selected: boolean;
  onBegin: (event: ReactPointerEvent, mode: Drag['mode']) => void;
}) {
  const { layer, source, box, crop, canvas, selected, onBegin } = props;
  const style: CSSProperties = {
    ...pictureFitCss(source.kind, crop),
    left: pct(box.x, canvas.width),
    top: pct(box.y, canvas.height),
    width: pct(box.width, canvas.width),
    height: pct(box.height, canvas.height),
    // The compositor multiplies the layer's alpha with the source's own opacity setting.
    opacity: (layer.visible ? layer.opacity : 0.25) * ('opacity' in source.settings ? source.settings.opacity : 1),
    // The worker rounds the same layers by the same rule (spec §9: 2% of the width); in percent of
    // the box on each axis, so it scales with the canvas on screen.
    borderRadius: cornerRadiusCss(layerCornerRadius(source.kind, box, canvas), box),
  };
  return (
    <div
      className={`${styles.layer} ${selected ? styles.selected : ''}`}
      style={style}
      data-testid="canvas-layer"
      data-layer-id={layer.id}
      data-kind={source.kind}
      data-box={`${box.x},${box.y},${box.width},${box.height}`}
      data-corner-radius={layerCornerRadius(source.kind, box, canvas)}
      data-fit={layerFit(source.kind)}
      data-crop={`${crop.top},${crop.right},${crop.bottom},${crop.left}`}
      aria-label={source.name}
      role="button"
      aria-pressed={selected}
      onPointerDown={(event) => onBegin(event, 'move')}
    >
      <LayerContent source={source} />
      {selected &&
        RESIZE_HANDLES.map((handle) => (
          <span
            key={handle}
            className={`${styles.handle} ${styles[handle]}`}
            data-testid={`resize-${handle}`}
            aria-hidden
            onPointerDown={(event) => onBegin(event, handle)}
          />
        ))}
    </div>
  );
}
