import { removeDestinationText } from '@onair/protocol';
import { confirmRemoveDestination, keepDestination } from '../../actions/destinations.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { useDestinationsStore } from '../../stores/index.ts';
import styles from './Destinations.module.css';

/** Spec §2 and §8: 'Remove destination?' with 'Remove Destination' and 'Keep it'. */
export function RemoveDestinationDialog() {
  const removing = useDestinationsStore((s) => s.removing);
  return (
    <Modal open={removing !== null} onClose={keepDestination} title="Remove destination?" description={removing ? removeDestinationText(removing.type) : ''}>
      {removing && (
        <div className={styles.form}>
          <p className={styles.text}>{removeDestinationText(removing.type)}</p>
          <div className={styles.actions}>
            <Button variant="ghost" onClick={keepDestination}>
              Keep it
            </Button>
            <Button variant="primary" onClick={() => void confirmRemoveDestination()}>
              Remove Destination
            </Button>
          </div>
        </div>
      )}
    </Modal>
  );
}
