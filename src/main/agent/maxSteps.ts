/** Model requests a run makes before it stops, unless the session or the person says otherwise. */
export const DEFAULT_MAX_STEPS = 50;
