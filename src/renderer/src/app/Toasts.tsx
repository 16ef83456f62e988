import { useApp } from '../stores/useApp';
import { ToastItem } from './ToastItem';

/** Request failures with the core's message, and the odd confirmation, stacked in a corner. */
export function Toasts() {
  const toasts = useApp((state) => state.toasts);
  if (toasts.length === 0) return null;
  return (
    <div className="toasts" data-testid="toasts">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
