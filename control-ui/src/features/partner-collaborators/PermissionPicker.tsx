import { permissionGroupLabels, permissionGroups, type PermissionGroup } from '@onair/protocol';
import styles from '../partner-home/Partner.module.css';

const areas = [...new Set(permissionGroups.map((g) => permissionGroupLabels[g].area))];

/** Partner spec §6: the permission groups, by area (Overlay, Chatbot, Analytics, Creator Site). */
export function PermissionPicker({
  value,
  onChange,
  error,
}: {
  value: PermissionGroup[];
  onChange: (groups: PermissionGroup[]) => void;
  error?: string | undefined;
}) {
  return (
    <fieldset className={`${styles.field} ${styles.fieldset} ${styles.full}`}>
      <legend className={styles.label}>Permissions</legend>
      {areas.map((area) => (
        <div key={area} className={styles.field}>
          <span className={styles.itemTitle}>{area}</span>
          <div className={styles.checks}>
            {permissionGroups
              .filter((g) => permissionGroupLabels[g].area === area)
              .map((group) => (
                <label key={group} className={styles.check}>
                  <input
                    type="checkbox"
                    checked={value.includes(group)}
                    onChange={(e) => onChange(e.target.checked ? [...value, group] : value.filter((g) => g !== group))}
                    aria-label={`${area}: ${permissionGroupLabels[group].label}`}
                  />
                  {permissionGroupLabels[group].label}
                </label>
              ))}
          </div>
        </div>
      ))}
      {error && (
        <span className={styles.fieldError} role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}
