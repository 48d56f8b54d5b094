import { useEffect } from 'react';
import { useParams } from 'react-router';
import { loadDevices, stopCameraPreviews } from '../actions/devices.ts';
import { closeStudio, openStudio } from '../actions/studio.ts';
import { AutoLiveBlock } from '../features/auto-live/AutoLiveBlock.tsx';
import { DestinationsPanel } from '../features/destinations/DestinationsPanel.tsx';
import { StudioMedia } from '../features/media/StudioMedia.tsx';
import { ProgramCanvas } from '../features/studio/ProgramCanvas.tsx';
import { SceneList } from '../features/studio/SceneList.tsx';
import { LayoutBar } from '../features/studio/LayoutBar.tsx';
import { SidePanel } from '../features/studio/SidePanel.tsx';
import { StudioLoading } from '../features/studio/StudioLoading.tsx';
import { StudioPanels } from '../features/studio/SourceSettingsDialog.tsx';
import { StudioTopBar } from '../features/studio/StudioTopBar.tsx';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import { useDestinationsStore, useStudioStore } from '../stores/index.ts';
import styles from './StudioPage.module.css';

/** The studio of one project: top bar, scene column, program canvas with its layouts, and side column. */
export function StudioPage() {
  // The route only matches with a project id, so it is always there.
  const projectId = useParams().projectId ?? '';
  const projectName = useStudioStore((s) => s.project?.name);
  useDocumentTitle(projectName ?? 'Studio');
  // Live, the side column's height goes to the chat; off air, to setting up the destinations.
  const onAir = useDestinationsStore((s) => s.broadcast?.state === 'starting' || s.broadcast?.state === 'live' || s.broadcast?.state === 'ending');
  useEffect(() => {
    void openStudio(projectId);
    void loadDevices();
    return () => {
      closeStudio();
      stopCameraPreviews();
    };
  }, [projectId]);
  return (
    <div className={styles.studio}>
      <StudioTopBar />
      <div className={styles.workspace}>
        <SceneList />
        <div className={styles.centre}>
          <ProgramCanvas />
          <LayoutBar />
        </div>
        <div className={styles.side} data-on-air={onAir}>
          <StudioMedia />
          <DestinationsPanel projectId={projectId}>
            <AutoLiveBlock projectId={projectId} />
          </DestinationsPanel>
          <SidePanel />
        </div>
      </div>
      <StudioPanels />
      <StudioLoading />
    </div>
  );
}
