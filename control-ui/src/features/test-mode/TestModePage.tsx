import { FlaskConical } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { audienceActsByPlatform, destinationKinds, type AudienceAct, type AudienceActKind, type DestinationView } from '@onair/protocol';
import { actAsAudience, loadTestModeChannels, type TestModeChannels } from '../../actions/test-mode.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import page from '../../styles/Page.module.css';
import styles from './TestMode.module.css';
import { Input } from '../../components/FormField.tsx';

/** The acts as buttons: their words, and the fixed amounts a test needs no more than. */
const ACTS: Record<AudienceActKind, { label: (platform: string) => string; make: (viewer: string, text: string) => AudienceAct }> = {
  chat: { label: (p) => (p === 'facebook' ? 'Comment' : 'Chat message'), make: (viewer, text) => ({ kind: 'chat', viewer, text }) },
  follow: { label: () => 'Follow', make: (viewer) => ({ kind: 'follow', viewer }) },
  sub: { label: () => 'Sub (3 months)', make: (viewer, text) => ({ kind: 'sub', viewer, message: text, months: 3 }) },
  raid: { label: () => 'Raid (25 viewers)', make: (viewer) => ({ kind: 'raid', viewer, viewers: 25 }) },
  cheer: { label: () => 'Cheer (100 bits)', make: (viewer, text) => ({ kind: 'cheer', viewer, message: text, bits: 100 }) },
  superChat: { label: () => 'Super Chat ($5)', make: (viewer, text) => ({ kind: 'superChat', viewer, message: text, amount: 5, currency: 'USD' }) },
};

interface LogLine {
  id: number;
  text: string;
  tone: 'ok' | 'note' | 'error';
}

/**
 * The platforms' test mode, as the audience (issue 39): a viewer of the project's test-mode
 * channels chats, follows, subscribes, raids, cheers, sends a Super Chat or comments, and the
 * studio receives it through the platform's own protocol from the local double. The server allows
 * it only in test mode and to those who run the project's broadcasts.
 */
export function TestModePage() {
  useDocumentTitle('Test mode: the audience');
  const { projectId = '' } = useParams();
  const [channels, setChannels] = useState<TestModeChannels | string | null>(null);
  const [viewer, setViewer] = useState('test_viewer');
  const [text, setText] = useState('Hello from the test audience!');
  const [log, setLog] = useState<LogLine[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void loadTestModeChannels(projectId).then(setChannels);
  }, [projectId]);

  const act = async (destination: DestinationView, kind: AudienceActKind) => {
    setBusy(true);
    const label = ACTS[kind].label(destinationKinds[destination.type].oauthProvider ?? '');
    const result = await actAsAudience(projectId, destination.id, ACTS[kind].make(viewer, text));
    setBusy(false);
    const line: Omit<LogLine, 'id'> =
      typeof result === 'string'
        ? { text: `${label} on ${destination.name}: ${result}`, tone: 'error' }
        : result.received
          ? { text: `${label} from ${viewer} sent to ${destination.name}.`, tone: 'ok' }
          : { text: `${label} from ${viewer} sent to ${destination.name}. ${result.note ?? ''}`, tone: 'note' };
    setLog((l) => [{ ...line, id: (l[0]?.id ?? 0) + 1 }, ...l].slice(0, 8));
  };

  const testModeDestinations =
    typeof channels === 'object' && channels !== null
      ? channels.destinations.filter((d) => channels.platforms.some((p) => destinationKinds[d.type].oauthProvider === p))
      : [];

  return (
    <div className={page.page}>
      <header className={page.header}>
        <div>
          <p className={styles.badge}>Test mode — no real platform accounts</p>
          <h1 className={page.title}>The audience</h1>
          <p className={page.subtitle}>Act as a viewer of this project&apos;s test-mode channels. The studio receives it the way it would from the platform.</p>
        </div>
      </header>
      {channels === null && <p role="status">Loading…</p>}
      {typeof channels === 'string' && <p role="alert">{channels}</p>}
      {typeof channels === 'object' && channels !== null && channels.platforms.length === 0 && (
        <EmptyState icon={<FlaskConical size={36} />} title="No platform runs in test mode here">
          <p>This server connects to the real Twitch, YouTube and Facebook, so their audience is real.</p>
        </EmptyState>
      )}
      {typeof channels === 'object' && channels !== null && channels.platforms.length > 0 && (
        <>
          <section className={`${page.card} ${styles.viewer}`} aria-label="Viewer">
            <label>
              <span>Viewer name</span>
              <Input value={viewer} onChange={(e) => setViewer(e.target.value)} maxLength={25} />
            </label>
            <label className={styles.grow}>
              <span>Message (chat, comment, sub, cheer, Super Chat)</span>
              <Input value={text} onChange={(e) => setText(e.target.value)} maxLength={200} />
            </label>
          </section>
          {testModeDestinations.length === 0 && (
            <p className={page.subtitle}>
              Add a Twitch, YouTube or Facebook destination in the studio first; in test mode they connect without a real account.
            </p>
          )}
          <ul className={styles.channels} aria-label="Test-mode channels">
            {testModeDestinations.map((d) => {
              const kind = destinationKinds[d.type];
              const provider = kind.oauthProvider;
              return (
                <li key={d.id} className={page.card} aria-label={`${kind.label}: ${d.name}`} style={{ ['--brand' as string]: kind.brandColor }}>
                  <div className={styles.channelHead}>
                    <span className={styles.brand} aria-hidden />
                    <strong>{d.name}</strong>
                    <span className={styles.kind}>{kind.label} (test mode)</span>
                  </div>
                  {!d.authenticated || !provider ? (
                    <p className={styles.kind}>Connect this destination in the studio first: its channel exists once you authorize it.</p>
                  ) : (
                    <div className={styles.acts}>
                      {audienceActsByPlatform[provider].map((k) => (
                        <Button key={k} variant="secondary" disabled={busy} onClick={() => void act(d, k)}>
                          {ACTS[k].label(provider)}
                        </Button>
                      ))}
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
          <section aria-label="What happened" className={styles.log}>
            <ul role="log">
              {log.map((l) => (
                <li key={l.id} data-tone={l.tone}>
                  {l.text}
                </li>
              ))}
            </ul>
          </section>
        </>
      )}
    </div>
  );
}
