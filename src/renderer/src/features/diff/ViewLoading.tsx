/** In a Monaco view's place while its module loads, or why it could not (a dropped link to `tether serve`, say). */
export function ViewLoading({ error, what }: { error: string | null; what?: string }) {
  if (error !== null)
    return (
      <div className="empty-state error-text" role="alert" data-testid="view-load-error">
        Could not load the editor ({error}). Reload the page to try again.
      </div>
    );
  return (
    <div className="empty-state" role="status">
      {what ? `Loading ${what}…` : 'Loading the editor…'}
    </div>
  );
}
