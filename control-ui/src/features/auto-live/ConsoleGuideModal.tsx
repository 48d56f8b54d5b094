import { consoleGuides } from '@onair/protocol';
import { closeConsoleGuide, openGuideLink } from '../../actions/ingest.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { useIngestStore } from '../../stores/index.ts';
import styles from './AutoLive.module.css';

/** The Xbox or PlayStation setup guide (spec §2): three steps, Got it, Watch Tutorial and Help Center. */
export function ConsoleGuideModal() {
  const kind = useIngestStore((s) => s.guide);
  const links = useIngestStore((s) => s.view?.guideLinks);
  const consoleUrl = useIngestStore((s) => s.view?.consoleServerUrl);
  const guide = kind ? consoleGuides[kind] : null;
  return (
    <Modal open={guide !== null} onClose={closeConsoleGuide} title={guide?.title ?? ''} description="Three steps to stream your console through OnAir.">
      {guide && (
        <div className={styles.guide}>
          <ol className={styles.steps}>
            {guide.steps.map((step, i) => (
              <li key={i}>{step}</li>
            ))}
          </ol>
          {consoleUrl && (
            <p className={styles.hint}>
              Console address: <code>{consoleUrl}</code>
            </p>
          )}
          <div className={styles.guideActions}>
            <Button variant="ghost" disabled={!links} onClick={() => links && openGuideLink(links.tutorialUrl)}>
              Watch Tutorial
            </Button>
            <Button variant="ghost" disabled={!links} onClick={() => links && openGuideLink(links.helpCenterUrl)}>
              Help Center
            </Button>
            <Button variant="primary" onClick={closeConsoleGuide}>
              Got it
            </Button>
          </div>
        </div>
      )}
    </Modal>
  );
}
