import { Bot, HandCoins, Layers, Megaphone, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { completeOnboarding } from '../../actions/partner.ts';
import { Button } from '../../components/Button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { usePartnerStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';
import { PersonalInfoForm } from '../partner-settings/PersonalInfoForm.tsx';
import intro from './GetStarted.module.css';

/** What the partner network gives a creator, said before it asks for anything (issue 52). */
const GIVES: ReadonlyArray<{ icon: LucideIcon; title: string; text: string }> = [
  { icon: Bot, title: 'A chatbot for your channel', text: 'Commands, timers, moderation and giveaways in your Twitch and YouTube chat.' },
  { icon: Layers, title: 'Overlays', text: 'Alerts, goals and widgets you design once and add to any scene as a browser source.' },
  { icon: HandCoins, title: 'Tips', text: 'A tip page of your own; tips are paid out to you.' },
  { icon: Megaphone, title: 'Sponsored campaigns', text: 'Brand campaigns you can join, paid per stream or per view.' },
];

/**
 * Partner spec §2 'Get Started': first what the partner network is and gives, then the account
 * details of §3 (a creator meets a form asking for a birthdate only after knowing what for).
 */
export function GetStartedPage() {
  useDocumentTitle('Get Started');
  const navigate = useNavigate();
  const account = usePartnerStore((s) => s.account);
  const [step, setStep] = useState<'intro' | 'details'>('intro');
  if (account?.onboarded) return <Navigate to="/partner" replace />;
  if (step === 'intro')
    return (
      <div className={styles.onboarding}>
        <h1 className={styles.title}>The OnAir partner network</h1>
        <p className={styles.lead}>Tools and income for your channel, free with your OnAir account. Here is what it gives you:</p>
        <ul className={intro.gives} aria-label="What the partner network gives">
          {GIVES.map(({ icon: Icon, title, text }) => (
            <li key={title} className={intro.give}>
              <Icon size={22} aria-hidden className={intro.icon} />
              <div>
                <h2 className={intro.giveTitle}>{title}</h2>
                <p className={intro.giveText}>{text}</p>
              </div>
            </li>
          ))}
        </ul>
        <p className={intro.why}>
          To join, we ask for your name, birthdate and country: campaigns and payouts need to know who you are and that you are old enough. You can change them
          later in Settings.
        </p>
        <div className={intro.actions}>
          <Button variant="primary" onClick={() => setStep('details')}>
            Join the partner network
          </Button>
          <Link to="/">Not now, back to my projects</Link>
        </div>
      </div>
    );
  return (
    <div className={styles.onboarding}>
      <h1 className={styles.title}>Get Started</h1>
      <p className={styles.lead}>Tell us about you and your channel. You can change these later in Settings.</p>
      <section className={styles.card} aria-label="Your details">
        <PersonalInfoForm
          initial={null}
          submitLabel="Continue"
          onSubmit={async (info) => {
            const result = await completeOnboarding(info);
            if (result.ok) void navigate('/partner', { replace: true });
            return result;
          }}
        />
      </section>
    </div>
  );
}
