import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from 'lucide-react';
import { dismissToast } from '../../actions/toasts.ts';
import { useToastStore, type Toast, type ToastKind } from '../../stores/index.ts';
import styles from './Toaster.module.css';

const ICONS: Record<ToastKind, typeof Info> = {
  success: CircleCheck,
  warning: TriangleAlert,
  info: Info,
  error: CircleAlert,
};

/** Renders the toasts raised through `showToast`; mounted once at the root of the app. */
export function Toaster() {
  const toasts = useToastStore((state) => state.toasts);
  return (
    // A live region that always exists, so screen readers announce toasts as they are added.
    <section className={styles.toaster} aria-label="Notifications" aria-live="polite">
      {toasts.map((toast) => (
        <ToastCard key={toast.id} toast={toast} />
      ))}
    </section>
  );
}

function ToastCard({ toast }: { toast: Toast }) {
  const Icon = ICONS[toast.kind];
  return (
    <div className={`${styles.toast} ${styles[toast.kind]}`} role={toast.kind === 'error' ? 'alert' : 'status'} data-kind={toast.kind}>
      <Icon size={18} className={styles.icon} aria-hidden />
      <div className={styles.text}>
        <p className={styles.title}>{toast.title}</p>
        {toast.description && <p className={styles.description}>{toast.description}</p>}
      </div>
      <button type="button" className={styles.dismiss} aria-label="Dismiss notification" onClick={() => dismissToast(toast.id)}>
        <X size={16} aria-hidden />
      </button>
    </div>
  );
}
