import { useEffect, useState } from 'react';
import { formatCountdown } from '@onair/protocol';
import { followCountdown } from '../../actions/countdown.ts';
import { useStudioStore } from '../../stores/index.ts';

/** Follows the project's countdown: asks for its time left whenever the confirmed active scene changes. */
export function useCountdownFollower(): void {
  const projectId = useStudioStore((s) => s.projectId);
  const activeSceneId = useStudioStore((s) => s.confirmed?.activeSceneId ?? null);
  const isCountdown = useStudioStore((s) => s.confirmed?.scenes.find((scene) => scene.id === s.confirmed?.activeSceneId)?.kind === 'countdown');
  useEffect(() => {
    void followCountdown();
  }, [projectId, activeSceneId, isCountdown]);
}

/** The time left (mm:ss) of the countdown scene `sceneId` while the server times it, else null; re-renders four times a second. */
export function useCountdownLeft(sceneId: string | undefined): string | null {
  const countdown = useStudioStore((s) => s.countdown);
  const running = countdown !== null && countdown.sceneId === sceneId;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [running, countdown]);
  return running ? formatCountdown(countdown.endsAt - now) : null;
}

/** The time left beside a countdown scene's name, while it runs. */
export function CountdownLeft({ sceneId, className }: { sceneId: string; className?: string }) {
  const left = useCountdownLeft(sceneId);
  if (left === null) return null;
  return (
    <span className={className} data-testid="countdown-left" aria-label={`${left} left`}>
      {left}
    </span>
  );
}
