import { useEffect } from 'react';
import { useApp } from '../stores/useApp';
import type { Toast } from '../stores/uiSlice';

const LIFETIME_MS = { info: 4000, error: 12000 };

/** One notice; errors stay longer than confirmations, and any can be dismissed. */
export function ToastItem({ toast }: { toast: Toast }) {
  const dismissToast = useApp((state) => state.dismissToast);
  useEffect(() => {
    const timer = setTimeout(() => dismissToast(toast.id), LIFETIME_MS[toast.kind]);
    return () => clearTimeout(timer);
  }, [toast.id, toast.kind, dismissToast]);
  function handleDismiss() {
    dismissToast(toast.id);
  }
  return (
    <div className={`toast ${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'} data-testid="toast" data-kind={toast.kind}>
      <span className="toast-message">{toast.message}</span>
      <button type="button" className="ghost" aria-label="Dismiss" onClick={handleDismiss}>
        ×
      </button>
    </div>
  );
}
