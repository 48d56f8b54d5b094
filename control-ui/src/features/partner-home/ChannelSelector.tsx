import { useId } from 'react';
import { selectChannel } from '../../actions/partner.ts';
import { Select } from '../../components/Select.tsx';
import { usePartnerStore } from '../../stores/index.ts';
import styles from './Partner.module.css';

/** Partner spec §2/§6: the channel selector, for the own channel and those one collaborates on. */
export function ChannelSelector() {
  const id = useId();
  const channels = usePartnerStore((s) => s.channels);
  const selected = usePartnerStore((s) => s.selectedChannelId);
  const options = channels.map((c) => ({ value: c.id, label: c.owner ? `${c.name} (your channel)` : c.name }));
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        Channel
      </label>
      <Select id={id} value={selected} options={options} onValueChange={selectChannel} placeholder="No channel" />
    </div>
  );
}
