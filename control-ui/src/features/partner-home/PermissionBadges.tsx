import { permissionGroupLabels, type PermissionGroup } from '@onair/protocol';
import styles from './Partner.module.css';

/** A member's permission groups as badges (partner spec §6); the collaborators' picker sets them. */
export function PermissionBadges({ groups }: { groups: readonly PermissionGroup[] }) {
  return (
    <span className={styles.badges}>
      {groups.map((g) => (
        <span key={g} className={styles.badge}>
          {permissionGroupLabels[g].area}: {permissionGroupLabels[g].label}
        </span>
      ))}
    </span>
  );
}
