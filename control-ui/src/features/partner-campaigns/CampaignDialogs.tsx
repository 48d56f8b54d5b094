import { useState, type FormEvent } from 'react';
import { CAMPAIGN_MESSAGE_MAX, type CampaignView, type KeyPlatform } from '@onair/protocol';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Select } from '../../components/Select.tsx';
import partner from '../partner-home/Partner.module.css';
import styles from './Campaigns.module.css';
import { Input, TextArea } from '../../components/FormField.tsx';

export interface ApplicationDraft {
  primaryChannel: string;
  keyPlatform: KeyPlatform | null;
  message: string;
}

/** The apply dialog (spec §3 Application: primary channel, key platform, message); Continue opens the agreement. */
export function ApplyDialog({
  campaign,
  open,
  onClose,
  onContinue,
}: {
  campaign: CampaignView;
  open: boolean;
  onClose: () => void;
  onContinue: (draft: ApplicationDraft) => void;
}) {
  const [draft, setDraft] = useState<ApplicationDraft>({ primaryChannel: '', keyPlatform: campaign.platforms[0] ?? null, message: '' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onContinue({ ...draft, primaryChannel: draft.primaryChannel.trim(), message: draft.message.trim() });
  };
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={campaign.requiresReview ? `Apply to ${campaign.name}` : `Join ${campaign.name}`}
      description="Tell the campaign where you stream."
    >
      <form className={`${partner.form} ${styles.dialog}`} onSubmit={submit}>
        <label className={`${partner.field} ${partner.full}`}>
          <span className={partner.label}>Primary channel</span>
          <Input
            required
            maxLength={64}
            placeholder="twitch.tv/yourname"
            value={draft.primaryChannel}
            onChange={(e) => setDraft({ ...draft, primaryChannel: e.target.value })}
          />
        </label>
        {campaign.kind === 'game-key' && (
          <div className={`${partner.field} ${partner.full}`}>
            <span className={partner.label} id="apply-key-platform">
              Key platform
            </span>
            <Select
              aria-labelledby="apply-key-platform"
              value={draft.keyPlatform}
              options={campaign.platforms.map((p) => ({ value: p, label: p }))}
              onValueChange={(v) => setDraft({ ...draft, keyPlatform: v as KeyPlatform })}
            />
          </div>
        )}
        <label className={`${partner.field} ${partner.full}`}>
          <span className={partner.label}>Message (optional)</span>
          <TextArea maxLength={CAMPAIGN_MESSAGE_MAX} value={draft.message} onChange={(e) => setDraft({ ...draft, message: e.target.value })} />
          <span className={partner.hint}>
            {draft.message.length}/{CAMPAIGN_MESSAGE_MAX}
          </span>
        </label>
        <div className={`${partner.actions} ${partner.full}`}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={draft.primaryChannel.trim() === ''}>
            Continue
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** The agreement dialog: the campaign's terms, accepted before the application is sent. */
export function AgreementDialog({
  campaign,
  open,
  pending,
  error,
  onClose,
  onAccept,
}: {
  campaign: CampaignView;
  open: boolean;
  pending: boolean;
  error: string | null;
  onClose: () => void;
  onAccept: () => void;
}) {
  const [agreed, setAgreed] = useState(false);
  return (
    <Modal open={open} onClose={onClose} title="Campaign agreement" description={`The terms of ${campaign.name}.`}>
      <div className={styles.dialog}>
        <p>By taking part in {campaign.name} you agree to:</p>
        <ul className={styles.reasons}>
          <li>feature {campaign.game} on your stream while the campaign runs, and disclose the sponsorship to your viewers;</li>
          {campaign.kind === 'game-key' && <li>use the game key yourself, and not sell or give it away;</li>}
          {campaign.kind === 'revenue-share' && (
            <li>receive {campaign.revenueSharePercent}% of the revenue your promo codes and links bring, paid to your OnAir balance;</li>
          )}
          <li>follow the platform rules of wherever you stream.</li>
        </ul>
        <label className={partner.check}>
          <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />I accept the campaign agreement
        </label>
        {error && (
          <p role="alert" className={partner.formError}>
            {error}
          </p>
        )}
        <div className={partner.actions}>
          <Button onClick={onClose}>Back</Button>
          <Button variant="primary" disabled={!agreed || pending} onClick={onAccept}>
            {campaign.requiresReview ? 'Send application' : 'Join campaign'}
          </Button>
        </div>
      </div>
    </Modal>
  );
}

/** The claim dialog: one key for the platform chosen. */
export function ClaimDialog({
  campaign,
  open,
  pending,
  error,
  onClose,
  onClaim,
}: {
  campaign: CampaignView;
  open: boolean;
  pending: boolean;
  error: string | null;
  onClose: () => void;
  onClaim: (platform: KeyPlatform) => void;
}) {
  const available = campaign.keys.byPlatform.filter((p) => p.available > 0);
  const [platform, setPlatform] = useState<KeyPlatform | null>(available[0]?.platform ?? campaign.platforms[0] ?? null);
  return (
    <Modal open={open} onClose={onClose} title="Claim your game key" description={`One key of ${campaign.game}.`}>
      <div className={styles.dialog}>
        <span className={partner.label} id="claim-platform">
          Platform
        </span>
        <Select
          aria-labelledby="claim-platform"
          value={platform}
          options={campaign.platforms.map((p) => {
            const left = campaign.keys.byPlatform.find((g) => g.platform === p)?.available ?? 0;
            return { value: p, label: `${p} · ${left} left`, disabled: left === 0 };
          })}
          onValueChange={(v) => setPlatform(v as KeyPlatform)}
        />
        <p className={partner.hint}>A key is yours once claimed; it cannot be exchanged for another platform.</p>
        {error && (
          <p role="alert" className={partner.formError}>
            {error}
          </p>
        )}
        <div className={partner.actions}>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={!platform || pending} onClick={() => platform && onClaim(platform)}>
            Claim key
          </Button>
        </div>
      </div>
    </Modal>
  );
}
