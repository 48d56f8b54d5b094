import { ArrowDown, ArrowUp, Eye, EyeOff, Settings, Trash2 } from 'lucide-react';
import { sourceKindInfo } from '@onair/protocol';
import { useState } from 'react';
import { moveLayerTo, removeLayer, restackLayer, updateLayer } from '../../actions/scene-edits.ts';
import { openPanel, selectLayer } from '../../actions/studio.ts';
import { Button } from '../../components/Button.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { useStudioStore } from '../../stores/index.ts';
import styles from './LayerList.module.css';
import { SourcePicker } from './SourcePicker.tsx';

/**
 * The sources of the active scene, front first: select, open settings, hide, restack (buttons,
 * or drag a row onto another to take its place), remove.
 */
export function LayerList() {
  const document = useStudioStore((s) => s.document);
  const selectedLayerId = useStudioStore((s) => s.selectedLayerId);
  const [dragged, setDragged] = useState<string | null>(null);
  const scene = document?.scenes.find((s) => s.id === document.activeSceneId);
  if (!document || !scene) return null;
  const stack = [...scene.layers].sort((a, b) => b.zIndex - a.zIndex);
  return (
    <section className={styles.section} aria-labelledby="layer-list-heading">
      <div className={styles.headingRow}>
        <h2 id="layer-list-heading" className={styles.heading}>
          Sources
        </h2>
        <SourcePicker />
      </div>
      <ol className={styles.layers} aria-label={`Sources in ${scene.name}`}>
        {stack.map((layer, index) => {
          const source = document.sources.find((s) => s.id === layer.sourceId);
          if (!source) return null;
          const selected = layer.id === selectedLayerId;
          return (
            <li
              key={layer.id}
              className={`${styles.layer} ${selected ? styles.selected : ''} ${dragged === layer.id ? styles.dragging : ''}`}
              data-testid="layer-item"
              draggable
              onDragStart={(event) => {
                event.dataTransfer.effectAllowed = 'move';
                event.dataTransfer.setData('text/plain', layer.id);
                setDragged(layer.id);
              }}
              onDragEnd={() => setDragged(null)}
              onDragOver={(event) => {
                if (dragged && dragged !== layer.id) event.preventDefault();
              }}
              onDrop={(event) => {
                event.preventDefault();
                if (dragged) moveLayerTo(scene.id, dragged, layer.id);
                setDragged(null);
              }}
            >
              <Button variant="ghost" className={styles.name} aria-pressed={selected} onClick={() => selectLayer(layer.id)}>
                {source.name}
                <span className={styles.kind}>{sourceKindInfo[source.kind].label}</span>
              </Button>
              <div className={styles.actions}>
                {source.kind !== 'watermark' && (
                  <IconButton
                    label={`${source.name} settings`}
                    icon={<Settings size={14} />}
                    onClick={() => openPanel({ kind: source.kind === 'webcam' ? 'camera-settings' : 'source-settings', sourceId: source.id })}
                  />
                )}
                <IconButton
                  label={layer.visible ? `Hide ${source.name}` : `Show ${source.name}`}
                  icon={layer.visible ? <Eye size={14} /> : <EyeOff size={14} />}
                  onClick={() => updateLayer(scene.id, layer.id, { visible: !layer.visible })}
                />
                <IconButton
                  label={`Bring ${source.name} forward`}
                  icon={<ArrowUp size={14} />}
                  disabled={index === 0}
                  onClick={() => restackLayer(scene.id, layer.id, 1)}
                />
                <IconButton
                  label={`Send ${source.name} backward`}
                  icon={<ArrowDown size={14} />}
                  disabled={index === stack.length - 1}
                  onClick={() => restackLayer(scene.id, layer.id, -1)}
                />
                <IconButton label={`Remove ${source.name}`} icon={<Trash2 size={14} />} onClick={() => removeLayer(scene.id, layer.id)} />
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
